// The "qpm" nlpsol plugin: CasADi's NLP, through a TNLP over its oracle
// functions, solved by qpm::QpmApplication. Results go back in CasADi's
// conventions: lam_g is Ipopt's lambda, lam_x = z_U - z_L.
#include "qpm_nlpsol.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

#include <IpRegOptions.hpp>
#include <IpSolveStatistics.hpp>

#include "qpm/ipopt/application.hpp"
#include "qpm/ipopt/compare.hpp"  // qpm::StatusName

namespace casadi {

extern "C" CASADI_NLPSOL_QPM_EXPORT int casadi_register_nlpsol_qpm(Nlpsol::Plugin* plugin) {
  plugin->creator = QpmNlpsol::creator;
  plugin->name = "qpm";
  plugin->doc = QpmNlpsol::meta_doc.c_str();
  plugin->version = CASADI_VERSION;
  plugin->options = &QpmNlpsol::options_;
  plugin->deserialize = &QpmNlpsol::deserialize;
  return 0;
}

extern "C" CASADI_NLPSOL_QPM_EXPORT void casadi_load_nlpsol_qpm() {
  Nlpsol::registerPlugin(casadi_register_nlpsol_qpm);
}

const std::string QpmNlpsol::meta_doc =
    "Quadratic Penalty Method (qpm) behind Ipopt's interface. Options go in the "
    "dictionary 'qpm': any option registered by qpm::QpmApplication (Ipopt's, such as "
    "tol, max_iter, print_level, hessian_approximation, and the qpm_* ones).";

const Options QpmNlpsol::options_ = {
    {&Nlpsol::options_},
    {{"qpm", {OT_DICT, "Options passed to qpm::QpmApplication (Ipopt names and qpm_*)"}}}};

namespace {

// The TNLP seen by QpmApplication: each callback evaluates one oracle
// function on m->arg / m->res, as CasADi's Ipopt plugin does. An exception
// from CasADi becomes a failed evaluation (false), which qpm handles.
class QpmNlpsolTnlp : public Ipopt::TNLP {
 public:
  QpmNlpsolTnlp(const QpmNlpsol& solver, QpmNlpsolMemory* m) : s_(solver), m_(m) {}

  bool get_nlp_info(Ipopt::Index& n, Ipopt::Index& m, Ipopt::Index& nnz_jac_g,
                    Ipopt::Index& nnz_h_lag, IndexStyleEnum& index_style) override {
    n = static_cast<Ipopt::Index>(s_.nx_);
    m = static_cast<Ipopt::Index>(s_.ng_);
    nnz_jac_g = static_cast<Ipopt::Index>(s_.jacg_sp_.nnz());
    nnz_h_lag = s_.exact_hessian_ ? static_cast<Ipopt::Index>(s_.hesslag_sp_.nnz()) : 0;
    index_style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Ipopt::Index n, double* x_l, double* x_u, Ipopt::Index m, double* g_l,
                       double* g_u) override {
    const auto* d = &m_->d_nlp;
    casadi_copy(d->lbz, n, x_l);
    casadi_copy(d->ubz, n, x_u);
    casadi_copy(d->lbz + n, m, g_l);
    casadi_copy(d->ubz + n, m, g_u);
    return true;
  }

  // x0, and the multiplier guesses lam_x0 (split by sign) and lam_g0.
  bool get_starting_point(Ipopt::Index n, bool init_x, double* x, bool init_z, double* z_L,
                          double* z_U, Ipopt::Index m, bool init_lambda,
                          double* lambda) override {
    const auto* d = &m_->d_nlp;
    if (init_x) casadi_copy(d->z, n, x);
    for (Ipopt::Index i = 0; init_z && i < n; ++i) z_L[i] = std::max(0.0, -d->lam[i]);
    for (Ipopt::Index i = 0; init_z && i < n; ++i) z_U[i] = std::max(0.0, d->lam[i]);
    if (init_lambda) casadi_copy(d->lam + n, m, lambda);
    return true;
  }

  bool eval_f(Ipopt::Index, const double* x, bool, double& f) override {
    return Calc("nlp_f", {x, m_->d_nlp.p}, {&f});
  }

  bool eval_grad_f(Ipopt::Index, const double* x, bool, double* grad_f) override {
    return Calc("nlp_grad_f", {x, m_->d_nlp.p}, {nullptr, grad_f});
  }

  bool eval_g(Ipopt::Index, const double* x, bool, Ipopt::Index, double* g) override {
    return Calc("nlp_g", {x, m_->d_nlp.p}, {g});
  }

  bool eval_jac_g(Ipopt::Index, const double* x, bool, Ipopt::Index, Ipopt::Index nele_jac,
                  Ipopt::Index* iRow, Ipopt::Index* jCol, double* values) override {
    if (values != nullptr) return Calc("nlp_jac_g", {x, m_->d_nlp.p}, {nullptr, values});
    return Triplets(s_.jacg_sp_, nele_jac, iRow, jCol);
  }

  // CasADi's upper triangle (r <= c) is handed over as Ipopt's lower (c, r).
  bool eval_h(Ipopt::Index, const double* x, bool, double obj_factor, Ipopt::Index,
              const double* lambda, bool, Ipopt::Index nele_hess, Ipopt::Index* iRow,
              Ipopt::Index* jCol, double* values) override {
    if (!s_.exact_hessian_) return false;
    if (values != nullptr) {
      return Calc("nlp_hess_l", {x, m_->d_nlp.p, &obj_factor, lambda}, {values});
    }
    return Triplets(s_.hesslag_sp_, nele_hess, jCol, iRow);
  }

  void finalize_solution(Ipopt::SolverReturn, Ipopt::Index n, const double* x, const double* z_L,
                         const double* z_U, Ipopt::Index m, const double* g,
                         const double* lambda, double obj_value, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    auto* d = &m_->d_nlp;
    casadi_copy(x, n, d->z);
    d->objective = obj_value;
    for (Ipopt::Index i = 0; i < n; ++i) d->lam[i] = z_U[i] - z_L[i];
    casadi_copy(lambda, m, d->lam + n);
    casadi_copy(g, m, m_->gk);
  }

 private:
  bool Calc(const std::string& fcn, std::initializer_list<const double*> in,
            std::initializer_list<double*> out) {
    std::copy(in.begin(), in.end(), m_->arg);
    std::copy(out.begin(), out.end(), m_->res);
    try {
      return s_.calc_function(m_, fcn) == 0;
    } catch (const KeyboardInterruptException&) {
      throw;
    } catch (const std::exception& e) {
      if (s_.ShowEvalWarnings()) casadi_warning("qpm: " + fcn + " failed: " + e.what());
      return false;
    }
  }

  // Row and column of each nonzero of `sp` (column-compressed).
  static bool Triplets(const Sparsity& sp, Ipopt::Index nele, Ipopt::Index* rows,
                       Ipopt::Index* cols) {
    if (nele != sp.nnz()) return false;
    const casadi_int* colind = sp.colind();
    const casadi_int* row = sp.row();
    for (casadi_int c = 0; c < sp.size2(); ++c) {
      for (casadi_int k = colind[c]; k < colind[c + 1]; ++k) {
        *rows++ = static_cast<Ipopt::Index>(row[k]);
        *cols++ = static_cast<Ipopt::Index>(c);
      }
    }
    return true;
  }

  const QpmNlpsol& s_;
  QpmNlpsolMemory* m_;
};

bool IsSuccess(Ipopt::ApplicationReturnStatus status) {
  return status == Ipopt::Solve_Succeeded || status == Ipopt::Solved_To_Acceptable_Level ||
         status == Ipopt::Feasible_Point_Found;
}

}  // namespace

QpmNlpsol::QpmNlpsol(const std::string& name, const Function& nlp) : Nlpsol(name, nlp) {}

QpmNlpsol::~QpmNlpsol() { clear_mem(); }

void QpmNlpsol::init(const Dict& opts) {
  Nlpsol::init(opts);
  for (auto&& op : opts) {
    if (op.first == "qpm") qpm_opts_ = op.second;
  }
  auto approx = qpm_opts_.find("hessian_approximation");
  exact_hessian_ = approx == qpm_opts_.end() || approx->second.to_string() == "exact";

  // The same functions, with the same inputs and outputs, as CasADi's Ipopt plugin.
  create_function("nlp_f", {"x", "p"}, {"f"});
  create_function("nlp_g", {"x", "p"}, {"g"});
  create_function("nlp_grad_f", {"x", "p"}, {"f", "grad:f:x"});
  create_function("nlp_jac_g", {"x", "p"}, {"g", "jac:g:x"});
  jacg_sp_ = get_function("nlp_jac_g").sparsity_out(1);
  if (exact_hessian_) {
    create_function("nlp_hess_l", {"x", "p", "lam:f", "lam:g"}, {"triu:hess:gamma:x:x"},
                    {{"gamma", {"f", "g"}}});
    hesslag_sp_ = get_function("nlp_hess_l").sparsity_out(0);
    casadi_assert(hesslag_sp_.is_triu(), "qpm: nlp_hess_l must be upper triangular");
  }
  alloc_w(ng_, true);  // gk
}

// Each entry of the "qpm" dictionary goes to the application with the type
// it was registered with, so that typos and bad values fail here.
void QpmNlpsol::PassOptions(Ipopt::IpoptApplication& app) const {
  for (auto&& op : Options::sanitize(qpm_opts_)) {
    Ipopt::SmartPtr<const Ipopt::RegisteredOption> reg = app.RegOptions()->GetOption(op.first);
    casadi_assert(Ipopt::IsValid(reg), "qpm: no such option: " + op.first);
    bool ok = false;
    switch (reg->Type()) {
      case Ipopt::OT_Number:
        ok = app.Options()->SetNumericValue(op.first, op.second.to_double(), false);
        break;
      case Ipopt::OT_Integer:
        ok = app.Options()->SetIntegerValue(op.first, static_cast<Ipopt::Index>(op.second.to_int()),
                                            false);
        break;
      case Ipopt::OT_String:
        ok = app.Options()->SetStringValue(op.first, op.second.to_string(), false);
        break;
      default:
        break;
    }
    casadi_assert(ok, "qpm: invalid value for option " + op.first);
  }
}

int QpmNlpsol::init_mem(void* mem) const {
  if (Nlpsol::init_mem(mem)) return 1;
  auto m = static_cast<QpmNlpsolMemory*>(mem);
  m->app = new qpm::QpmApplication();
  PassOptions(*m->app);
  casadi_assert(m->app->Initialize("") == Ipopt::Solve_Succeeded,
                "qpm: QpmApplication::Initialize failed");
  m->tnlp = new QpmNlpsolTnlp(*this, m);
  return 0;
}

void QpmNlpsol::set_work(void* mem, const double**& arg, double**& res, casadi_int*& iw,
                         double*& w) const {
  auto m = static_cast<QpmNlpsolMemory*>(mem);
  Nlpsol::set_work(mem, arg, res, iw, w);
  m->gk = w;
  w += ng_;
}

int QpmNlpsol::solve(void* mem) const {
  auto m = static_cast<QpmNlpsolMemory*>(mem);
  m->n_iter = 0;
  const Ipopt::ApplicationReturnStatus status = m->app->OptimizeTNLP(m->tnlp);
  m->return_status = qpm::StatusName(status);
  m->success = IsSuccess(status);
  if (status == Ipopt::Maximum_Iterations_Exceeded || status == Ipopt::Maximum_CpuTime_Exceeded) {
    m->unified_return_status = SOLVER_RET_LIMITED;
  }
  m->iter_count = m->app->Statistics()->IterationCount();
  m->n_iter = m->iter_count;
  casadi_copy(m->gk, ng_, m->d_nlp.z + nx_);  // g as finalize_solution gave it
  return 0;
}

Dict QpmNlpsol::get_stats(void* mem) const {
  Dict stats = Nlpsol::get_stats(mem);
  auto m = static_cast<QpmNlpsolMemory*>(mem);
  stats["return_status"] = m->return_status;
  stats["iter_count"] = m->iter_count;
  return stats;
}

void QpmNlpsol::serialize_body(SerializingStream& s) const {
  Nlpsol::serialize_body(s);
  s.version("QpmNlpsol", 1);
  s.pack("QpmNlpsol::jacg_sp", jacg_sp_);
  s.pack("QpmNlpsol::hesslag_sp", hesslag_sp_);
  s.pack("QpmNlpsol::exact_hessian", exact_hessian_);
  s.pack("QpmNlpsol::qpm_opts", qpm_opts_);
}

QpmNlpsol::QpmNlpsol(DeserializingStream& s) : Nlpsol(s) {
  s.version("QpmNlpsol", 1);
  s.unpack("QpmNlpsol::jacg_sp", jacg_sp_);
  s.unpack("QpmNlpsol::hesslag_sp", hesslag_sp_);
  s.unpack("QpmNlpsol::exact_hessian", exact_hessian_);
  s.unpack("QpmNlpsol::qpm_opts", qpm_opts_);
}

}  // namespace casadi
