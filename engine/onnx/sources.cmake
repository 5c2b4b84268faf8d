# SPDX-License-Identifier: GPL-3.0-or-later
# The ONNX executor (specdec::nn): tensors, graph loading and validation, kernels, the ONNX language model.
# The tensor type and the thread pool, which the rest of the engine uses too: built with or without the executor.
set(SPECDEC_ONNX_BASE_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/Tensor.h ${CMAKE_CURRENT_LIST_DIR}/Tensor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ModelMemory.h ${CMAKE_CURRENT_LIST_DIR}/ModelMemory.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ThreadPool.h ${CMAKE_CURRENT_LIST_DIR}/ThreadPool.cpp
)
set(SPECDEC_ONNX_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/TensorProtoIo.h ${CMAKE_CURRENT_LIST_DIR}/TensorProtoIo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ExternalData.h ${CMAKE_CURRENT_LIST_DIR}/ExternalData.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Operator.h ${CMAKE_CURRENT_LIST_DIR}/Operator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Opset18.h ${CMAKE_CURRENT_LIST_DIR}/Opset18.cpp
  ${CMAKE_CURRENT_LIST_DIR}/MergedDecoder.h ${CMAKE_CURRENT_LIST_DIR}/MergedDecoder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Broadcast.h ${CMAKE_CURRENT_LIST_DIR}/Broadcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elementwise.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/copy_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matmul.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recurrent.cpp
  ${CMAKE_CURRENT_LIST_DIR}/KvCache.h ${CMAKE_CURRENT_LIST_DIR}/KvCache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ElementTypes.h ${CMAKE_CURRENT_LIST_DIR}/ElementTypes.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxGraph.h ${CMAKE_CURRENT_LIST_DIR}/OnnxGraph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxLanguageModel.h ${CMAKE_CURRENT_LIST_DIR}/OnnxLanguageModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/HfFolder.h ${CMAKE_CURRENT_LIST_DIR}/HfFolder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxKvState.h ${CMAKE_CURRENT_LIST_DIR}/OnnxKvState.cpp
  ${CMAKE_CURRENT_LIST_DIR}/JsonStrings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxRun.h ${CMAKE_CURRENT_LIST_DIR}/OnnxRun.cpp
)

# The hot kernels (products, attention, GELU): one translation unit per instruction set, chosen at run time
# (InstructionSet.h). No contraction: the products' sums fuse each multiply-add where the templates say so
# (V::fma: the FMA instruction on AVX2 and AVX-512, an exact emulation on the baseline path), so every path rounds the
# same way.
list(APPEND SPECDEC_ONNX_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/InstructionSet.h ${CMAKE_CURRENT_LIST_DIR}/InstructionSet.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Kernels.h
  ${CMAKE_CURRENT_LIST_DIR}/Gemm.h ${CMAKE_CURRENT_LIST_DIR}/Gemm.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Attention.h ${CMAKE_CURRENT_LIST_DIR}/Attention.cpp
  ${CMAKE_CURRENT_LIST_DIR}/GraphFusion.h ${CMAKE_CURRENT_LIST_DIR}/GraphFusion.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ShapeMemo.h ${CMAKE_CURRENT_LIST_DIR}/ShapeMemo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels/baseline.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels/avx2.cpp
  ${CMAKE_CURRENT_LIST_DIR}/kernels/avx512.cpp
)
# (GCC 12 warns falsely about _mm512_undefined inside its own AVX-512 headers.)
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/baseline.cpp PROPERTIES
  COMPILE_OPTIONS "-ffp-contract=off")
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64|amd64")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/avx2.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma;-ffp-contract=off")
  set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/kernels/avx512.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx512bw;-mavx512vl;-mavx512dq;-ffp-contract=off;-Wno-maybe-uninitialized")
endif()
