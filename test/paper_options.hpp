// Options for the tests of the paper's mechanisms.
#ifndef QPM_TEST_PAPER_OPTIONS_HPP_
#define QPM_TEST_PAPER_OPTIONS_HPP_

#include "qpm/core/options.hpp"

namespace qpm_test {

// The paper's Algorithm 1 exactly, with its QPM-GD (the defaults before the
// multiplier mode): tests of the paper's mechanisms use it.
inline qpm::Options PaperOptions() {
  qpm::Options o;
  o.mode = qpm::Mode::kPaper;
  o.inner_solver = qpm::InnerSolverType::kGradientDescent;
  o.tr.preconditioner = qpm::PreconditionerKind::kNone;
  return o;
}

}  // namespace qpm_test

#endif  // QPM_TEST_PAPER_OPTIONS_HPP_
