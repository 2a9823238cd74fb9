// exp, log and integer powers that give the same bits on every architecture. The spectral fits (SRF's
// surrogate, GORF/GRFF's signed mixture) iterate an optimiser over these functions, so a last-bit
// difference grows into different fitted parameters; glibc picks FMA-based variants on FMA-capable x86-64
// (AArch64 always fuses), whose last bits differ from ARMv7's and older x86's. These use only +, -, *, /
// and exact scalings by powers of two, which IEEE 754 rounds identically everywhere (kfm_offline builds
// with -ffp-contract=off, so no product is fused). Accuracy: below 0.65 ulp (docs/reliability.md,
// "Determinism"; tests/offline/portable_math_test.cpp).
#pragma once

namespace kfm::offline::portable {

double exp(double x);              // e^x; 0 below -745.2, +inf above 709.78
double log(double x);              // natural log; -inf at 0, NaN below 0
double pow(double base, unsigned n);  // base^n by squaring in double-double

}  // namespace kfm::offline::portable
