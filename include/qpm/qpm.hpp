// Umbrella header: everything a user of qpm needs.
#ifndef QPM_QPM_HPP_
#define QPM_QPM_HPP_

#include "qpm/application.hpp"
#include "qpm/casadi_codegen_tnlp.hpp"
#include "qpm/compare.hpp"
#include "qpm/derivative_checker.hpp"
#include "qpm/options.hpp"
#include "qpm/problem.hpp"
#include "qpm/solver.hpp"
#include "qpm/tnlp_problem.hpp"
#include "qpm/tolerance.hpp"

#endif  // QPM_QPM_HPP_
