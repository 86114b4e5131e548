// A TNLP that forwards every call to another one: the base of decorators
// that change one or two callbacks (fault injection, slow callbacks) and
// leave the model otherwise its own.
#ifndef QPM_MODELS_FORWARDING_TNLP_HPP_
#define QPM_MODELS_FORWARDING_TNLP_HPP_

#include <IpTNLP.hpp>

namespace qpm_test {

class ForwardingTnlp : public Ipopt::TNLP {
 public:
  using Index = Ipopt::Index;
  using Number = Ipopt::Number;

  explicit ForwardingTnlp(Ipopt::SmartPtr<Ipopt::TNLP> inner) : inner_(inner) {}

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    IndexStyleEnum& index_style) override {
    return inner_->get_nlp_info(n, m, nnz_jac_g, nnz_h_lag, index_style);
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    return inner_->get_bounds_info(n, x_l, x_u, m, g_l, g_u);
  }
  bool get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_l, Number* z_u,
                          Index m, bool init_lambda, Number* lambda) override {
    return inner_->get_starting_point(n, init_x, x, init_z, z_l, z_u, m, init_lambda, lambda);
  }
  bool eval_f(Index n, const Number* x, bool new_x, Number& f) override {
    return inner_->eval_f(n, x, new_x, f);
  }
  bool eval_grad_f(Index n, const Number* x, bool new_x, Number* grad_f) override {
    return inner_->eval_grad_f(n, x, new_x, grad_f);
  }
  bool eval_g(Index n, const Number* x, bool new_x, Index m, Number* g) override {
    return inner_->eval_g(n, x, new_x, m, g);
  }
  bool eval_jac_g(Index n, const Number* x, bool new_x, Index m, Index nele_jac, Index* i_row,
                  Index* j_col, Number* values) override {
    return inner_->eval_jac_g(n, x, new_x, m, nele_jac, i_row, j_col, values);
  }
  bool eval_h(Index n, const Number* x, bool new_x, Number obj_factor, Index m,
              const Number* lambda, bool new_lambda, Index nele_hess, Index* i_row, Index* j_col,
              Number* values) override {
    return inner_->eval_h(n, x, new_x, obj_factor, m, lambda, new_lambda, nele_hess, i_row, j_col,
                          values);
  }
  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number* z_l,
                         const Number* z_u, Index m, const Number* g, const Number* lambda,
                         Number obj_value, const Ipopt::IpoptData* ip_data,
                         Ipopt::IpoptCalculatedQuantities* ip_cq) override {
    inner_->finalize_solution(status, n, x, z_l, z_u, m, g, lambda, obj_value, ip_data, ip_cq);
  }

 private:
  Ipopt::SmartPtr<Ipopt::TNLP> inner_;
};

}  // namespace qpm_test

#endif  // QPM_MODELS_FORWARDING_TNLP_HPP_
