// CasADi nlpsol plugin "qpm": nlpsol("S", "qpm", nlp, {"qpm": {...}}) solves
// with qpm::QpmApplication through a TNLP over the oracle functions that
// CasADi's own Ipopt plugin uses (nlp_f, nlp_g, nlp_grad_f, nlp_jac_g,
// nlp_hess_l). CasADi loads it as libcasadi_nlpsol_qpm.so and calls
// casadi_register_nlpsol_qpm (casadi/core/plugin_interface.hpp).
//
// Built against CasADi's internal headers (INSTALL_INTERNAL_HEADERS), so it
// must match the CasADi it is loaded into: same version (3.7), same
// casadi_int width and the same C++ standard library ABI.
#ifndef QPM_CASADI_PLUGIN_QPM_NLPSOL_HPP_
#define QPM_CASADI_PLUGIN_QPM_NLPSOL_HPP_

#include <string>

#include <casadi/core/nlpsol_impl.hpp>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>

#define CASADI_NLPSOL_QPM_EXPORT __attribute__((visibility("default")))

namespace casadi {

struct QpmNlpsolMemory : public NlpsolMemory {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app;  // a qpm::QpmApplication
  Ipopt::SmartPtr<Ipopt::TNLP> tnlp;              // reads and writes d_nlp
  double* gk = nullptr;                           // g at the solution (work vector)
  const char* return_status = "Unset";
  casadi_int iter_count = 0;
};

class QpmNlpsol : public Nlpsol {
 public:
  QpmNlpsol(const std::string& name, const Function& nlp);
  ~QpmNlpsol() override;

  const char* plugin_name() const override { return "qpm"; }
  std::string class_name() const override { return "QpmNlpsol"; }
  static Nlpsol* creator(const std::string& name, const Function& nlp) {
    return new QpmNlpsol(name, nlp);
  }

  static const Options options_;
  const Options& get_options() const override { return options_; }
  static const std::string meta_doc;

  void init(const Dict& opts) override;
  void* alloc_mem() const override { return new QpmNlpsolMemory(); }
  int init_mem(void* mem) const override;
  void free_mem(void* mem) const override { delete static_cast<QpmNlpsolMemory*>(mem); }
  void set_work(void* mem, const double**& arg, double**& res, casadi_int*& iw,
                double*& w) const override;
  int solve(void* mem) const override;
  Dict get_stats(void* mem) const override;

  void serialize_body(SerializingStream& s) const override;
  static ProtoFunction* deserialize(DeserializingStream& s) { return new QpmNlpsol(s); }

  Sparsity jacg_sp_;     // ng x nx
  Sparsity hesslag_sp_;  // nx x nx upper triangle, empty without exact Hessian
  bool exact_hessian_ = true;
  Dict qpm_opts_;        // the "qpm" option: passed to the application
  bool ShowEvalWarnings() const { return show_eval_warnings_; }

 protected:
  explicit QpmNlpsol(DeserializingStream& s);

 private:
  void PassOptions(Ipopt::IpoptApplication& app) const;
};

}  // namespace casadi

#endif  // QPM_CASADI_PLUGIN_QPM_NLPSOL_HPP_
