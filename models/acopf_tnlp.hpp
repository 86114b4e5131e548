// The AC optimal power flow in polar voltages as an Ipopt TNLP: PowerModels'
// ACPPowerModel (the AC column of PGLib-OPF's BASELINE.md), in per unit.
// docs/acopf.md has the formulation; in short, with baseMVA = S:
//
//   minimize   sum_k  c2 S^2 pg_k^2 + c1 S pg_k + c0
//   over       va, vm (buses), pg, qg (generators), p_fr, q_fr, p_to, q_to (branches)
//   subject to vm_min <= vm <= vm_max, va_ref = 0, gen limits, |flow| <= rate_a,
//              power balance at each bus (with shunts gs, bs),
//              Ohm's law on each branch (tap ratio tm, shift ta, charging b/2),
//              angmin <= va_f - va_t <= angmax for each pair of connected buses,
//              p^2 + q^2 <= rate_a^2 at both ends of each rated branch.
//
// Taken over from PowerModels' data checks (correct_network_data!): tap 0
// (or negative) means 1; angle limits at or beyond -+90 deg become -+60 deg
// (1.0472 rad), both 0 become -+60 deg; rate_a 0 means no thermal limit and
// free flow variables; parallel branches share one angle-difference row with
// the tightest limits; r = x = 0 gives g = b = 0 (pinv of zero).
//
// Layout. Variables: va (nb), vm (nb), pg (ng), qg (ng), then per branch
// (p_fr, q_fr, p_to, q_to). Rows: active balance (nb), reactive balance (nb),
// per branch the four Ohm's-law rows (flow - h(v, va) = 0, same order as its
// flows), angle differences (one per bus pair), per rated branch its
// thermal rows (from, to). C index style; Hessian: lower triangle, each
// entry once.
#ifndef QPM_MODELS_ACOPF_TNLP_HPP_
#define QPM_MODELS_ACOPF_TNLP_HPP_

#include <array>
#include <vector>

#include <IpTNLP.hpp>

#include "matpower_case.hpp"

namespace acopf {

class AcopfTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  explicit AcopfTnlp(const MatpowerCase& c);

  int num_variables() const { return n_; }
  int num_constraints() const { return m_; }

  // Index of each variable in x.
  int va(int bus) const { return bus; }
  int vm(int bus) const { return nb_ + bus; }
  int pg(int gen) const { return 2 * nb_ + gen; }
  int qg(int gen) const { return 2 * nb_ + ng_ + gen; }
  int flow(int branch, int end) const { return 2 * nb_ + 2 * ng_ + 4 * branch + end; }  // FlowEnd

  enum FlowEnd { kPFrom = 0, kQFrom = 1, kPTo = 2, kQTo = 3 };

  // What the last finalize_solution received.
  bool finalized() const { return finalized_; }
  Ipopt::SolverReturn status() const { return status_; }
  double objective() const { return objective_; }           // $/h
  const std::vector<double>& x() const { return x_; }
  const std::vector<double>& lambda() const { return lambda_; }

  // sum_k c2 P_k^2 + c1 P_k + c0 with P_k = S pg_k in MW and the file's
  // coefficients: the cost of the final point in $/h, computed apart from
  // eval_f (it checks the per-unit conversion).
  double GenerationCost() const { return x_.empty() ? 0.0 : GenerationCost(x_.data()); }
  double GenerationCost(const double* x) const;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override;
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override;
  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L, Number* z_U,
                          Index m, bool init_lambda, Number* lambda) override;
  bool eval_f(Index n, const Number* x, bool new_x, Number& obj_value) override;
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad_f) override;
  bool eval_g(Index n, const Number* x, bool new_x, Index m, Number* g) override;
  bool eval_jac_g(Index n, const Number* x, bool new_x, Index m, Index nele_jac, Index* iRow,
                  Index* jCol, Number* values) override;
  bool eval_h(Index n, const Number* x, bool new_x, Number obj_factor, Index m,
              const Number* lambda, bool new_lambda, Index nele_hess, Index* iRow, Index* jCol,
              Number* values) override;
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_L,
                         const Number* z_U, Index m, const Number* g, const Number* lambda,
                         Number obj_value, const Ipopt::IpoptData* ip_data,
                         Ipopt::IpoptCalculatedQuantities* ip_cq) override;

 private:
  struct Bus {
    double pd, qd, gs, bs;  // p.u.
    double vmin, vmax;
    bool reference;
  };
  struct Gen {
    int bus;
    double pmin, pmax, qmin, qmax;  // p.u.
    double c2, c1, c0;              // per-unit cost: c2 pg^2 + c1 pg + c0
    double c2_mw, c1_mw;            // the file's, for GenerationCost
  };
  // One Ohm's-law row: flow = a v1^2 + v1 v2 (c cos(va1 - va2) + s sin(va1 - va2)),
  // where end 1 is the end the flow leaves from (from-rows: f, to-rows: t).
  struct OhmRow {
    double a, c, s;
  };
  struct Branch {
    int f, t;
    std::array<OhmRow, 4> rows;  // p_fr, q_fr, p_to, q_to
    double rate;                 // p.u.; 0: no limit
  };
  struct AnglePair {
    int f, t;
    double lo, hi;  // radians, on va_f - va_t
  };
  struct Arc {  // a branch end at a bus
    int branch;
    int end;  // kPFrom or kPTo (the q variable follows it)
  };
  // The first and second derivatives of one Ohm's-law row's h with respect
  // to (va1, va2, vm1, vm2), as they enter the Jacobian and the Hessian.
  struct OhmDerivatives {
    double h;
    std::array<double, 4> grad;
    std::array<double, 10> hess;  // lower triangle of the 4 x 4, row by row
  };

  void ReadBuses(const MatpowerCase& c);
  void ReadGens(const MatpowerCase& c);
  void ReadBranches(const MatpowerCase& c);
  void BuildAnglePairs(const MatpowerCase& c);
  void BuildJacobianStructure();
  void BuildHessianStructure();

  // Local variable numbers (0 va_f, 1 va_t, 2 vm_f, 3 vm_t) of (va1, va2, vm1, vm2) for `end`.
  static std::array<int, 4> LocalOrder(int end);
  std::array<int, 4> BranchVoltageVariables(const Branch& br) const;
  OhmDerivatives Ohm(const Branch& br, int end, const Number* x, bool second) const;
  template <class Emit>
  void WalkJacobian(const Number* x, Emit&& emit) const;

  int nb_ = 0, ng_ = 0, nl_ = 0;
  int n_ = 0, m_ = 0;
  int row_ohm_ = 0, row_angle_ = 0, row_thermal_ = 0;  // first row of each block
  double base_mva_ = 1.0;
  std::vector<Bus> buses_;
  std::vector<Gen> gens_;
  std::vector<Branch> branches_;
  std::vector<AnglePair> angle_pairs_;
  std::vector<int> rated_;                        // branches with a thermal limit
  std::vector<int> arc_start_, gen_start_;        // per bus, into arcs_ and bus_gens_ (CSR)
  std::vector<Arc> arcs_;
  std::vector<int> bus_gens_;

  std::vector<Index> jac_rows_, jac_cols_;
  std::vector<Index> hess_rows_, hess_cols_;
  std::vector<int> hess_pg_;                      // per generator, -1 when c2 = 0
  std::vector<int> hess_vm_;                      // per bus, the (vm, vm) entry
  std::vector<std::array<int, 10>> hess_branch_;  // per branch, the 4 x 4 voltage block
  std::vector<std::array<int, 4>> hess_flow_;     // per rated branch, the 4 flow diagonals

  bool finalized_ = false;
  Ipopt::SolverReturn status_ = Ipopt::INTERNAL_ERROR;
  double objective_ = 0.0;
  std::vector<double> x_, lambda_;
};

}  // namespace acopf

#endif  // QPM_MODELS_ACOPF_TNLP_HPP_
