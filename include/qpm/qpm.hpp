// Umbrella header: everything a user of qpm needs.
#ifndef QPM_QPM_HPP_
#define QPM_QPM_HPP_

#include "qpm/ipopt/application.hpp"
#include "qpm/casadi/codegen_tnlp.hpp"
#include "qpm/ipopt/compare.hpp"
#include "qpm/ipopt/derivative_checker.hpp"
#include "qpm/core/option_table.hpp"
#include "qpm/core/options.hpp"
#include "qpm/core/problem.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/ipopt/tnlp_problem.hpp"
#include "qpm/core/tolerance.hpp"

#endif  // QPM_QPM_HPP_
