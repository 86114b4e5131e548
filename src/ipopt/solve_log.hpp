// The Ipopt-like log of a QPM solve, printed through Ipopt's Journalist so
// that print_level, output_file and file_print_level behave as in Ipopt.
#ifndef QPM_SRC_SOLVE_LOG_HPP_
#define QPM_SRC_SOLVE_LOG_HPP_

#include <IpJournalist.hpp>
#include <IpReturnCodes.hpp>

#include "qpm/core/options.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/ipopt/tnlp_problem.hpp"

namespace qpm {

void PrintBanner(Ipopt::Journalist& jnlst, const char* version);
void PrintHeader(Ipopt::Journalist& jnlst, const TnlpProblem& problem, const Options& options);
void PrintOuterLine(Ipopt::Journalist& jnlst, const OuterRecord& record, double obj_scaling);
void PrintFooter(Ipopt::Journalist& jnlst, const Summary& summary, const CallbackCounts& counts,
                 double obj_scaling, double wall_time, Ipopt::ApplicationReturnStatus status);

}  // namespace qpm

#endif  // QPM_SRC_SOLVE_LOG_HPP_
