/*===- moert_abi.h - the codes compiled code passes to the GPU runtime -*- C -*-===
 *
 * What code compiled for the GPU target and libmoe_runtime_gpu share besides
 * the functions of moert_abi.def: the codes of the int32_t arguments that
 * select a weight layout or an output element type. Plain C, no MLIR, no
 * CUDA: the runtime (moe_runtime_gpu.h) and the compiler
 * (lib/Conversion/MoeToRuntimeCalls/RuntimeAbi.h) both include it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MOE_RUNTIME_MOERT_ABI_H
#define MOE_RUNTIME_MOERT_ABI_H

/* Weight layouts (weight_layout arguments). */
#define MOERT_WEIGHT_KN 0 /* b[G, K, N] (row-major per group) */
#define MOERT_WEIGHT_NK 1 /* b[G, N, K]: each group's matrix is used transposed */

/* Output element types (c_dtype, db_dtype arguments). */
#define MOERT_GPU_OUT_BF16 0
#define MOERT_GPU_OUT_F32 1
/* f32 output of f32 operands multiplied on TF32 tensor cores (10-bit
 * mantissas): for products that compiled code then rounds to bf16. */
#define MOERT_GPU_OUT_F32_TF32 2

#endif /* MOE_RUNTIME_MOERT_ABI_H */
