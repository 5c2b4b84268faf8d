# SPDX-License-Identifier: GPL-3.0-or-later
# The ONNX executor (specdec::nn): tensors, graph loading and validation, kernels, the ONNX language model.
set(SPECDEC_ONNX_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/Tensor.h ${CMAKE_CURRENT_LIST_DIR}/Tensor.cpp
  ${CMAKE_CURRENT_LIST_DIR}/TensorProtoIo.h ${CMAKE_CURRENT_LIST_DIR}/TensorProtoIo.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ThreadPool.h ${CMAKE_CURRENT_LIST_DIR}/ThreadPool.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Operator.h ${CMAKE_CURRENT_LIST_DIR}/Operator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/Broadcast.h ${CMAKE_CURRENT_LIST_DIR}/Broadcast.cpp
  ${CMAKE_CURRENT_LIST_DIR}/elementwise.cpp
  ${CMAKE_CURRENT_LIST_DIR}/shape_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/copy_ops.cpp
  ${CMAKE_CURRENT_LIST_DIR}/reduce.cpp
  ${CMAKE_CURRENT_LIST_DIR}/matmul.cpp
  ${CMAKE_CURRENT_LIST_DIR}/recurrent.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxGraph.h ${CMAKE_CURRENT_LIST_DIR}/OnnxGraph.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxLanguageModel.h ${CMAKE_CURRENT_LIST_DIR}/OnnxLanguageModel.cpp
  ${CMAKE_CURRENT_LIST_DIR}/JsonStrings.cpp
  ${CMAKE_CURRENT_LIST_DIR}/OnnxRun.h ${CMAKE_CURRENT_LIST_DIR}/OnnxRun.cpp
)
