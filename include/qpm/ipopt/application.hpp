// QpmApplication: the Quadratic Penalty Method behind Ipopt's application
// interface. An Ipopt program switches solvers by changing one line:
//
//   SmartPtr<IpoptApplication> app = IpoptApplicationFactory();
//   SmartPtr<IpoptApplication> app = new qpm::QpmApplication();
//
// Options (qpm_* registered in the constructor, Ipopt's where they have a
// counterpart), Initialize(), OptimizeTNLP(), Statistics(), finalize_solution
// and intermediate_callback behave as Ipopt users expect. The solving is
// qpm's own (qpm::Solve); Ipopt provides the interface types, options and
// journal.
#ifndef QPM_IPOPT_APPLICATION_HPP_
#define QPM_IPOPT_APPLICATION_HPP_

#include <string>

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>

#include "qpm/ipopt/derivative_checker.hpp"
#include "qpm/core/options.hpp"
#include "qpm/core/solver.hpp"
#include "qpm/ipopt/tnlp_problem.hpp"

namespace qpm {

class QpmApplication : public Ipopt::IpoptApplication {
 public:
  explicit QpmApplication(bool create_console_out = true);
  // Shares registered options and journalist; used by clone().
  QpmApplication(Ipopt::SmartPtr<Ipopt::RegisteredOptions> reg_options,
                 Ipopt::SmartPtr<Ipopt::OptionsList> options,
                 Ipopt::SmartPtr<Ipopt::Journalist> jnlst);

  Ipopt::SmartPtr<Ipopt::IpoptApplication> clone() override;

  Ipopt::ApplicationReturnStatus OptimizeTNLP(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp) override;
  // No warm-start state is kept between solves: re-solves from the TNLP's x0.
  Ipopt::ApplicationReturnStatus ReOptimizeTNLP(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp) override;
  // QPM needs a TNLP: these refuse with Invalid_Problem_Definition.
  Ipopt::ApplicationReturnStatus OptimizeNLP(const Ipopt::SmartPtr<Ipopt::NLP>& nlp) override;
  Ipopt::ApplicationReturnStatus OptimizeNLP(const Ipopt::SmartPtr<Ipopt::NLP>& nlp,
                                             Ipopt::SmartPtr<Ipopt::AlgorithmBuilder>& builder) override;
  Ipopt::ApplicationReturnStatus ReOptimizeNLP(const Ipopt::SmartPtr<Ipopt::NLP>& nlp) override;

  // Never null: zeros before the first solve.
  Ipopt::SmartPtr<Ipopt::SolveStatistics> Statistics() override;

  // qpm's own record of the last solve (outer history, counts, message).
  const Summary& LastSummary() const { return summary_; }
  const CallbackCounts& LastCallbackCounts() const { return callback_counts_; }

  // Registers the qpm_* options (idempotent).
  static void RegisterQpmOptions(const Ipopt::SmartPtr<Ipopt::RegisteredOptions>& roptions);

  // Maps the options list onto the typed structs; false with `error` when the
  // resulting options are invalid.
  bool ReadOptions(qpm::Options* options, TnlpOptions* tnlp_options, std::string* error) const;
  // Ipopt's derivative_test* options.
  DerivativeTestOptions ReadDerivativeTestOptions() const;

 private:
  Ipopt::ApplicationReturnStatus Refuse(const char* what);
  Ipopt::ApplicationReturnStatus Solve(const Ipopt::SmartPtr<Ipopt::TNLP>& tnlp);
  void ApplyPrintLevel();
  void RunDerivativeTest(Ipopt::TNLP& tnlp);

  Summary summary_;
  CallbackCounts callback_counts_;
  Ipopt::SmartPtr<Ipopt::SolveStatistics> statistics_;
};

// Ipopt's return code and SolverReturn for a QPM termination.
Ipopt::ApplicationReturnStatus ToApplicationStatus(TerminationType type);
Ipopt::SolverReturn ToSolverReturn(TerminationType type);
// The text of Ipopt's "EXIT:" line for a return code.
const char* ExitMessage(Ipopt::ApplicationReturnStatus status);

}  // namespace qpm

#endif  // QPM_IPOPT_APPLICATION_HPP_
