# SPDX-License-Identifier: GPL-3.0-or-later
# Suites of the ONNX executor (engine/onnx). Paths are relative to tests/.
set(SPECDEC_ONNX_TESTDATA_DIR "/usr/share/libonnx-testdata/data" CACHE PATH
    "The ONNX backend test data (Debian package libonnx-testdata)")

specdec_add_test(test_onnx_conformance onnx/test_onnx_conformance.cpp)
target_compile_definitions(test_onnx_conformance PRIVATE
  SPECDEC_ONNX_TESTDATA_DIR="${SPECDEC_ONNX_TESTDATA_DIR}"
  SPECDEC_ONNX_SKIP_LIST="${CMAKE_CURRENT_LIST_DIR}/conformance-skips.txt")

specdec_add_test(test_onnx_model onnx/test_onnx_model.cpp)
specdec_add_test(test_onnx_errors onnx/test_onnx_errors.cpp)
# Opset 18 on ONNX 1.12 (Opset18.h) and the refused contrib operators.
specdec_add_test(test_onnx_opset18 onnx/test_onnx_opset18.cpp)
# The model memory limit (ModelMemory.h): the machine's default, weights checked first, packed and mapped bytes.
specdec_add_test(test_model_memory onnx/test_model_memory.cpp)
target_compile_definitions(test_model_memory PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
add_dependencies(test_model_memory specdec)

# Not a test: the executor's side of tests/onnx/bench_vs_torch.py (speed against PyTorch on one thread).
add_executable(onnx_bench onnx/onnx_bench.cpp)
target_link_libraries(onnx_bench PRIVATE specdec_engine)

# Bit-identical results on every instruction-set path and thread count (InstructionSet.h).
specdec_add_test(test_onnx_paths onnx/test_onnx_paths.cpp)
target_compile_definitions(test_onnx_paths PRIVATE
  SPECDEC_ONNX_TESTDATA_DIR="${SPECDEC_ONNX_TESTDATA_DIR}" SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
specdec_add_test(test_onnx_kv_cache onnx/test_onnx_kv_cache.cpp)
target_compile_definitions(test_onnx_kv_cache PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

# The ONNX models shipped under corpora/*/models: parity, vocabulary, lossless and greedy-exact decoding.
specdec_add_test(test_shipped_models onnx/test_shipped_models.cpp)
target_compile_definitions(test_shipped_models PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
# Token trees on the shipped ONNX models: greedy equality; the chain equality and chi-square on the caches.
foreach(_suite test_trees_onnx_greedy test_trees_onnx_cache)
  specdec_add_test(${_suite} onnx/${_suite}.cpp)
  target_compile_definitions(${_suite} PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endforeach()

# Hugging Face model folders (hf:PATH) on the test folders of tests/hf/make_models.py: PyTorch parity, padding,
# greedy equality and the chi-square on a Llama pair.
specdec_add_test(test_hf_folders onnx/test_hf_folders.cpp)

# Load progress (LoadProgress.h): a model's and a pair's fractions, by the bytes of their weights.
specdec_add_test(test_load_progress onnx/test_load_progress.cpp)
target_compile_definitions(test_load_progress PRIVATE SPECDEC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
