// The benches' view of a solve: what the solver handed to finalize_solution.
#ifndef QPM_MODELS_RECORDING_TNLP_HPP_
#define QPM_MODELS_RECORDING_TNLP_HPP_

#include <cmath>
#include <cstdio>
#include <vector>

#include <IpTNLP.hpp>

// A TNLP base for the benches' models: keeps what finalize_solution returned
// and, with trace_, prints each iteration (intermediate_callback) to stderr.
class RecordingTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  void finalize_solution(Ipopt::SolverReturn, Index n, const Number* x, const Number*,
                         const Number*, Index m, const Number* g, const Number* lambda,
                         Number obj, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    x_.assign(x, x + n);
    g_.assign(g, g + m);
    lambda_.assign(lambda, lambda + m);
    f_ = obj;
  }
  // With trace_: one line per iteration to stderr.
  bool intermediate_callback(Ipopt::AlgorithmMode, Index iter, Number obj, Number inf_pr,
                             Number inf_du, Number, Number d_norm, Number, Number, Number, Index,
                             const Ipopt::IpoptData*, Ipopt::IpoptCalculatedQuantities*) override {
    if (trace_) {
      std::fprintf(stderr, "  iter %d f %.10g inf_pr %.2e inf_du %.2e |d| %.2e\n", iter, obj,
                   inf_pr, inf_du, d_norm);
    }
    return true;
  }
  std::vector<double> x_, g_, lambda_;
  double f_ = NAN;
  bool trace_ = false;
};

#endif  // QPM_MODELS_RECORDING_TNLP_HPP_
