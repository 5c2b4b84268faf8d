# SPDX-License-Identifier: GPL-3.0-or-later
# Suites of the engine (engine/, no Qt in the code under test): text and vocabularies, the models, the rule and
# its losslessness, decoding chains and trees, metrics, the labs. Paths are relative to tests/.
foreach(_suite test_text test_data_files test_acceptance test_sampler test_ngram test_lossless test_decoding
    test_decoding_state test_metrics test_drafts test_lossless_lab test_run_loop)
  specdec_add_test(${_suite} engine/${_suite}.cpp)
endforeach()
# Token trees, in parts that ctest -j runs side by side (the ONNX parts are in onnx/): the rule exactly, the
# decoder (greedy equality, traces, states, metrics), the chi-square with the wrong variants.
foreach(_suite test_trees_rule test_trees_decoding test_trees_lossless)
  specdec_add_test(${_suite} engine/${_suite}.cpp)
endforeach()
# The subword pair (n-grams over Qwen3's tokenization of kjv, TestSupport.h) needs the real tokenizer files.
set_tests_properties(test_decoding test_lossless test_trees_lossless PROPERTIES FIXTURES_REQUIRED tokenizer_files)
