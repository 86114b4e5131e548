// Compiled by test/serial_only_compile.sh, never built into a program: each
// CASE builds one serial-only component of the core from a PenaltyFunction,
// which may be distributed, and must not compile; with ASSEMBLED defined it
// builds the same from PenaltyFunction::assembled() and must.
#include "core/inner/cholesky_preconditioner.hpp"
#include "core/inner/gradient_descent.hpp"
#include "core/inner/lbfgs.hpp"
#include "core/inner/line_search.hpp"
#include "core/multipliers.hpp"
#include "core/penalty.hpp"

#ifdef ASSEMBLED
#define FROM(q) (*(q)->assembled())
#else
#define FROM(q) (q)
#endif

void Build(qpm::PenaltyFunction* q, const qpm::Iterate& x, const qpm::SparseMatrix& pattern) {
#if CASE == 1
  qpm::GradientDescent solver(qpm::GradientDescentOptions(), FROM(q));
#elif CASE == 2
  qpm::Lbfgs solver(qpm::LbfgsOptions(), FROM(q));
#elif CASE == 3
  qpm::ArmijoLineSearch search{qpm::LineSearchOptions()};
  qpm::Iterate trial;
  qpm::StepInfo step;
  search.Search(FROM(q), x, x.grad_q, 1.0, &trial, &step);
#elif CASE == 4
  qpm::CholeskyPreconditioner factor(FROM(q), pattern);
#elif CASE == 5
  qpm::Vector lambda;
  qpm::NewtonMultiplierStep(FROM(q), x, 10, nullptr, &lambda);
#endif
  (void)x, (void)pattern;
}
