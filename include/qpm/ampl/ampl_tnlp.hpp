// AmplTnlp: an AMPL .nl model (read with the netlib AMPL Solver Library,
// Debian's libamplsolver-dev) as an Ipopt TNLP, so that QpmApplication and
// IpoptApplication can both solve it.
//
// Conventions at the boundary:
//   - the TNLP always minimizes: for a maximization objective (ASL objtype 1)
//     f, grad f and the Hessian weight are negated; ObjectiveValue() and the
//     .sol file report the objective with the model's sign;
//   - ASL's +-Infinity bounds become +-1e19 (Ipopt's nlp_*_bound_inf default);
//   - evaluation errors (log of a negative number, ...) make eval_* return
//     false instead of ending the process (ASL's nerror argument);
//   - the Hessian of the Lagrangian is ASL's sparse upper triangle (sphes),
//     handed over as Ipopt's lower triangle.
// Threads: the netlib ASL keeps process-wide state (cur_ASL, its error
// handling), so AmplTnlp objects must not be read or evaluated from several
// threads at once; the rest of qpm has no such restriction.
// The ASL headers define many short macros (n_var, X0, ...), so they stay in
// src/ampl/ampl_tnlp.cpp; this header only names the ASL struct.
#ifndef QPM_AMPL_AMPL_TNLP_HPP_
#define QPM_AMPL_AMPL_TNLP_HPP_

#include <string>
#include <vector>

#include <IpTNLP.hpp>

struct ASL_pfgh;

namespace qpm {

// What finalize_solution received, in the model's sign conventions.
struct AmplSolution {
  bool available = false;        // finalize_solution was called
  Ipopt::SolverReturn status = Ipopt::UNASSIGNED;
  double objective = 0.0;        // with the model's sign (maximization included)
  std::vector<double> x;
  std::vector<double> g;         // constraint bodies g(x)
  std::vector<double> lambda;    // Ipopt's multipliers of the minimized TNLP
  std::vector<double> z_L, z_U;
};

class AmplTnlp : public Ipopt::TNLP {
 public:
  // Reads `path` (a .nl file; a stub without ".nl" is accepted as AMPL does).
  // Returns null with `error` set when the file is missing or malformed.
  static Ipopt::SmartPtr<AmplTnlp> Read(const std::string& path, std::string* error);
  // The AMPL Solver Library's version, its date stamp (ASLdate_ASL, e.g. 20190702).
  static long AslDate();
  ~AmplTnlp() override;
  AmplTnlp(const AmplTnlp&) = delete;
  AmplTnlp& operator=(const AmplTnlp&) = delete;

  int NumVariables() const { return n_; }
  int NumConstraints() const { return m_; }
  bool HasObjective() const { return has_objective_; }
  bool IsMaximization() const { return obj_sign_ < 0.0; }
  // Number of eval_* calls that failed (ASL evaluation errors).
  int EvaluationErrors() const { return evaluation_errors_; }
  // Objective with the model's sign at x (no error reporting: NaN on failure).
  double ModelObjective(const double* x);
  const AmplSolution& Solution() const { return solution_; }

  // Writes <stub>.sol through ASL's write_sol: `message`, x and the AMPL
  // duals (see AmplDuals), with solve_result_num. False if nothing to write.
  bool WriteSolution(const std::string& message, int solve_result_num);
  // AMPL's dual values from Ipopt's lambda. Ipopt: grad f + J^T lambda = 0
  // for the minimized TNLP; AMPL reports y = d(objective)/d(rhs), which is
  // -lambda for a minimization and +lambda for a maximization (we minimized
  // -f, so lambda is already the sensitivity of -(-f)). Ipopt's own AMPL
  // driver uses the same signs.
  std::vector<double> AmplDuals() const;

  // Ipopt::TNLP
  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac_g,
                    Ipopt::Index& nnz_h_lag, IndexStyleEnum& index_style) override;
  bool get_bounds_info(Ipopt::Index n, Ipopt::Number* x_l, Ipopt::Number* x_u, Ipopt::Index m,
                       Ipopt::Number* g_l, Ipopt::Number* g_u) override;
  bool get_starting_point(Ipopt::Index n, bool init_x, Ipopt::Number* x, bool init_z,
                          Ipopt::Number* z_L, Ipopt::Number* z_U, Ipopt::Index m,
                          bool init_lambda, Ipopt::Number* lambda) override;
  bool eval_f(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number& obj_value) override;
  bool eval_grad_f(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number* grad_f) override;
  bool eval_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m,
              Ipopt::Number* g) override;
  bool eval_jac_g(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Index m,
                  Ipopt::Index nele_jac, Ipopt::Index* iRow, Ipopt::Index* jCol,
                  Ipopt::Number* values) override;
  bool eval_h(Ipopt::Index n, const Ipopt::Number* x, bool new_x, Ipopt::Number obj_factor,
              Ipopt::Index m, const Ipopt::Number* lambda, bool new_lambda, Ipopt::Index nele_hess,
              Ipopt::Index* iRow, Ipopt::Index* jCol, Ipopt::Number* values) override;
  void finalize_solution(Ipopt::SolverReturn status, Ipopt::Index n, const Ipopt::Number* x,
                         const Ipopt::Number* z_L, const Ipopt::Number* z_U, Ipopt::Index m,
                         const Ipopt::Number* g, const Ipopt::Number* lambda,
                         Ipopt::Number obj_value, const Ipopt::IpoptData* ip_data,
                         Ipopt::IpoptCalculatedQuantities* ip_cq) override;

 private:
  explicit AmplTnlp(ASL_pfgh* asl);
  bool Setup(const std::string& file, std::string* error);
  bool JacobianIsConsistent(const std::string& file, std::string* error) const;
  void ReadBounds();
  // sphes needs objval and conval at the Hessian's x: these keep track.
  void NewPoint(const Ipopt::Number* x);
  bool EnsureValues(const Ipopt::Number* x);
  bool Failed();  // counts an evaluation error, returns false

  ASL_pfgh* asl_;
  int n_ = 0;
  int m_ = 0;
  int nnz_jac_ = 0;
  int nnz_hess_ = 0;
  bool has_objective_ = false;
  double obj_sign_ = 1.0;  // -1 for a maximization: the TNLP minimizes obj_sign * f
  int evaluation_errors_ = 0;
  std::vector<double> x_cached_;  // point of the last evaluation
  bool have_f_ = false;           // objval was called at x_cached_
  bool have_g_ = false;           // conval was called at x_cached_
  std::vector<double> scratch_g_;
  std::vector<double> x_l_, x_u_, g_l_, g_u_, x0_;
  std::vector<double> objective_weight_;  // OW of sphes, one per objective
  AmplSolution solution_;
};

}  // namespace qpm

#endif  // QPM_AMPL_AMPL_TNLP_HPP_
