# SPDX-License-Identifier: GPL-3.0-or-later
# Suites of what the command line and the window share (app/core: session files, lessons) and of the `specdec`
# program itself, run as a process. Paths are relative to tests/.
specdec_add_test(test_session cli/test_session.cpp)
target_link_libraries(test_session PRIVATE specdec_appcore)
specdec_add_test(test_lessons cli/test_lessons.cpp)
target_link_libraries(test_lessons PRIVATE specdec_appcore)
target_compile_definitions(test_lessons PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
specdec_add_test(test_cli cli/test_cli.cpp)
add_dependencies(test_cli specdec)
target_compile_definitions(test_cli PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
set_tests_properties(test_cli PROPERTIES FIXTURES_REQUIRED tokenizer_files) # run --tokenizer qwen3
specdec_add_test(test_race cli/test_race.cpp)
add_dependencies(test_race specdec)

# The reproducers of issue 11 (sanitizer and fuzzer findings), through the engine and the CLI; most are ONNX
# files, so the suite needs the executor.
if(SPECDEC_ONNX_EXECUTOR)
  specdec_add_test(test_hostile_inputs cli/test_hostile_inputs.cpp)
  target_compile_definitions(test_hostile_inputs PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_dependencies(test_hostile_inputs specdec)
  set_property(TEST test_hostile_inputs APPEND PROPERTY LABELS onnx)
endif()
