#include "qpm/ampl/ampl_tnlp.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "nl_body.hpp"
#include "nl_header.hpp"

// Last: the ASL headers define macros (n_var, X0, LUv, objval, ...) that
// would rewrite identifiers in the Ipopt and standard headers.
#include <asl_pfgh.h>
#include <getstub.h>

namespace qpm {

using Ipopt::Index;
using Ipopt::Number;

namespace {

constexpr double kIpoptInfinity = 1e19;  // Ipopt's default nlp_*_bound_inf

// ASL's +-Infinity (and anything beyond Ipopt's limit) to +-1e19.
double ToIpoptBound(double v) {
  return std::max(-kIpoptInfinity, std::min(kIpoptInfinity, v));
}

std::string NlFileName(const std::string& path) {
  const bool has_suffix = path.size() > 3 && path.compare(path.size() - 3, 3, ".nl") == 0;
  return has_suffix ? path : path + ".nl";
}

const char* ReadErrorText(int code) {
  switch (code) {
    case ASL_readerr_nofile: return "cannot open the .nl file";
    case ASL_readerr_argerr: return "user-defined function with bad arguments";
    case ASL_readerr_unavail: return "user-defined function not available";
    case ASL_readerr_corrupt: return "corrupt .nl file";
    case ASL_readerr_bug: return "bug in the .nl reader";
    case ASL_readerr_CLP: return "CLP extensions are not supported";
    default: return "unknown read error";
  }
}

}  // namespace

AmplTnlp::AmplTnlp(ASL_pfgh* asl) : asl_(asl) {}

long AmplTnlp::AslDate() { return ASLdate_ASL; }

AmplTnlp::~AmplTnlp() {
  ASL* a = reinterpret_cast<ASL*>(asl_);
  ASL_free(&a);
}

Ipopt::SmartPtr<AmplTnlp> AmplTnlp::Read(const std::string& path, std::string* error) {
  const std::string file = NlFileName(path);
  // Before the ASL, which exits on a header it cannot parse, allocates by
  // the header's counts and trusts the body (see nl_header.hpp, nl_body.hpp).
  ampl_internal::NlHeader header;
  if (!ampl_internal::ReadNlHeader(file, &header, error)) return nullptr;
  if (!ampl_internal::CheckNlBody(file, header, error)) return nullptr;
  ASL_pfgh* asl = reinterpret_cast<ASL_pfgh*>(ASL_alloc(ASL_read_pfgh));
  Ipopt::SmartPtr<AmplTnlp> tnlp = new AmplTnlp(asl);  // owns asl from here
  return tnlp->Setup(file, error) ? tnlp : nullptr;
}

bool AmplTnlp::Setup(const std::string& file, std::string* error) {
  ASL_pfgh* asl = asl_;
  return_nofile = 1;  // jac0dim returns null instead of exiting
  // jac0dim opens stub + ".nl" first: with the stub of `file` it opens the
  // file Read() checked (and not, say, model.nl.nl). Length 0: strlen, as
  // a given length would drop trailing blanks.
  std::vector<char> stub(file.begin(), file.end() - 3);
  stub.push_back('\0');
  FILE* nl = jac0dim(stub.data(), 0);
  if (nl == nullptr) {
    *error = "cannot open " + file;
    return false;
  }
  if (n_obj > 1) fprintf(stderr, "qpm: %s has %d objectives; using the first\n", file.c_str(), n_obj);
  want_xpi0 = 1;  // X0 allocated when the model has a start point
  const int code = pfgh_read(nl, ASL_return_read_err | ASL_findgroups);
  if (code != ASL_readerr_none) {
    // The file opened in jac0dim, so "no file" here means it ended early or
    // held a line the reader rejected (ASL printed which one).
    *error = file + ": " + (code == ASL_readerr_nofile ? "corrupt .nl file" : ReadErrorText(code));
    return false;
  }
  n_ = n_var;
  m_ = n_con;
  nnz_jac_ = static_cast<int>(nzc);
  if (!JacobianIsConsistent(file, error)) return false;
  has_objective_ = n_obj > 0;
  obj_sign_ = (has_objective_ && objtype[0] != 0) ? -1.0 : 1.0;
  objective_weight_.assign(std::max(1, n_obj), 0.0);
  hesset(1, 0, has_objective_ ? 1 : 0, 0, nlc);
  nnz_hess_ = static_cast<int>(sphsetup(-1, has_objective_ ? 1 : 0, m_ > 0 ? 1 : 0, 1));
  scratch_g_.resize(m_);
  ReadBounds();
  return true;
}

// eval_jac_g writes entry cg->goff of arrays of nzc entries: the ASL takes
// nzc from the header and goff from the k and J segments without comparing
// them, so each goff must be in range and used once, each varno a variable.
bool AmplTnlp::JacobianIsConsistent(const std::string& file, std::string* error) const {
  ASL_pfgh* asl = asl_;
  std::vector<char> used(nnz_jac_, 0);
  long long entries = 0;
  for (int i = 0; i < m_; ++i) {
    for (cgrad* cg = Cgrad[i]; cg != nullptr; cg = cg->next, ++entries) {
      const bool ok = cg->goff >= 0 && cg->goff < nnz_jac_ && !used[cg->goff] &&
                      cg->varno >= 0 && cg->varno < n_;
      if (!ok || entries >= nnz_jac_) {
        *error = file + ": Jacobian entry of constraint " + std::to_string(i) + " (variable " +
                 std::to_string(cg->varno) + ") disagrees with the header's " +
                 std::to_string(nnz_jac_) + " nonzeros";
        return false;
      }
      used[cg->goff] = 1;
    }
  }
  if (entries != nnz_jac_) {
    *error = file + ": header claims " + std::to_string(nnz_jac_) + " Jacobian nonzeros, the J segments hold " +
             std::to_string(entries);
    return false;
  }
  return true;
}

// LUv/LUrhs hold (lower, upper) pairs when Uvx/Urhsx are null (the default).
void AmplTnlp::ReadBounds() {
  ASL_pfgh* asl = asl_;
  x_l_.resize(n_); x_u_.resize(n_); g_l_.resize(m_); g_u_.resize(m_);
  for (int j = 0; j < n_; ++j) {
    x_l_[j] = ToIpoptBound(Uvx ? LUv[j] : LUv[2 * j]);
    x_u_[j] = ToIpoptBound(Uvx ? Uvx[j] : LUv[2 * j + 1]);
  }
  for (int i = 0; i < m_; ++i) {
    g_l_[i] = ToIpoptBound(Urhsx ? LUrhs[i] : LUrhs[2 * i]);
    g_u_[i] = ToIpoptBound(Urhsx ? Urhsx[i] : LUrhs[2 * i + 1]);
  }
  x0_.assign(n_, 0.0);  // AMPL's default start: 0 where none is given
  if (X0 != nullptr) std::copy(X0, X0 + n_, x0_.begin());
}

bool AmplTnlp::Failed() {
  ++evaluation_errors_;
  return false;
}

void AmplTnlp::NewPoint(const Number* x) {
  if (!x_cached_.empty() && std::equal(x, x + n_, x_cached_.begin())) return;
  x_cached_.assign(x, x + n_);
  have_f_ = have_g_ = false;
}

bool AmplTnlp::get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                            IndexStyleEnum& index_style) {
  n = n_;
  m = m_;
  nnz_jac_g = nnz_jac_;
  nnz_h_lag = nnz_hess_;
  index_style = C_STYLE;
  return true;
}

bool AmplTnlp::get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                               Number* g_u) {
  if (n != n_ || m != m_) return false;
  std::copy(x_l_.begin(), x_l_.end(), x_l);
  std::copy(x_u_.begin(), x_u_.end(), x_u);
  std::copy(g_l_.begin(), g_l_.end(), g_l);
  std::copy(g_u_.begin(), g_u_.end(), g_u);
  return true;
}

bool AmplTnlp::get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L,
                                  Number* z_U, Index m, bool init_lambda, Number* lambda) {
  if (n != n_ || m != m_) return false;
  if (init_x) std::copy(x0_.begin(), x0_.end(), x);
  if (init_z) {
    std::fill(z_L, z_L + n, 0.0);
    std::fill(z_U, z_U + n, 0.0);
  }
  if (init_lambda) std::fill(lambda, lambda + m, 0.0);
  return true;
}

bool AmplTnlp::eval_f(Index n, const Number* x, bool /*new_x*/, Number& obj_value) {
  ASL_pfgh* asl = asl_;
  if (n != n_) return false;
  NewPoint(x);
  if (!has_objective_) {
    obj_value = 0.0;
    return true;
  }
  fint nerror = 0;  // >= 0: ASL returns the error here instead of exiting
  const double f = objval(0, const_cast<Number*>(x), &nerror);
  if (nerror != 0 || !std::isfinite(f)) return Failed();
  have_f_ = true;
  obj_value = obj_sign_ * f;
  return true;
}

bool AmplTnlp::eval_grad_f(Index n, const Number* x, bool /*new_x*/, Number* grad_f) {
  ASL_pfgh* asl = asl_;
  if (n != n_) return false;
  NewPoint(x);
  if (!has_objective_) {
    std::fill(grad_f, grad_f + n, 0.0);
    return true;
  }
  fint nerror = 0;
  objgrd(0, const_cast<Number*>(x), grad_f, &nerror);
  if (nerror != 0) return Failed();
  for (Index j = 0; j < n; ++j) grad_f[j] *= obj_sign_;
  return true;
}

bool AmplTnlp::eval_g(Index n, const Number* x, bool /*new_x*/, Index m, Number* g) {
  ASL_pfgh* asl = asl_;
  if (n != n_ || m != m_) return false;
  NewPoint(x);
  if (m == 0) return true;
  fint nerror = 0;
  conval(const_cast<Number*>(x), g, &nerror);
  if (nerror != 0) return Failed();
  have_g_ = true;
  return true;
}

bool AmplTnlp::eval_jac_g(Index n, const Number* x, bool /*new_x*/, Index m, Index nele_jac,
                          Index* iRow, Index* jCol, Number* values) {
  ASL_pfgh* asl = asl_;
  if (n != n_ || m != m_ || nele_jac != nnz_jac_) return false;
  if (values == nullptr) {  // structure: goff is each entry's place in jacval's output
    for (Index i = 0; i < m; ++i) {
      for (cgrad* cg = Cgrad[i]; cg != nullptr; cg = cg->next) {
        iRow[cg->goff] = i;
        jCol[cg->goff] = cg->varno;
      }
    }
    return true;
  }
  NewPoint(x);
  if (m == 0) return true;
  fint nerror = 0;
  jacval(const_cast<Number*>(x), values, &nerror);
  return nerror == 0 ? true : Failed();
}

// sphes differentiates the expression graphs evaluated by objval/conval at x.
bool AmplTnlp::EnsureValues(const Number* x) {
  NewPoint(x);
  Number f = 0.0;
  if (has_objective_ && !have_f_ && !eval_f(n_, x, false, f)) return false;
  if (m_ > 0 && !have_g_ && !eval_g(n_, x, false, m_, scratch_g_.data())) return false;
  return true;
}

bool AmplTnlp::eval_h(Index n, const Number* x, bool /*new_x*/, Number obj_factor, Index m,
                      const Number* lambda, bool /*new_lambda*/, Index nele_hess, Index* iRow,
                      Index* jCol, Number* values) {
  ASL_pfgh* asl = asl_;
  if (n != n_ || m != m_ || nele_hess != nnz_hess_) return false;
  if (values == nullptr) {  // ASL's upper triangle by columns = Ipopt's lower triangle
    Index k = 0;
    for (Index j = 0; j < n; ++j) {
      for (fint p = sputinfo->hcolstarts[j]; p < sputinfo->hcolstarts[j + 1]; ++p, ++k) {
        iRow[k] = j;
        jCol[k] = static_cast<Index>(sputinfo->hrownos[p]);
      }
    }
    return true;
  }
  if (!EnsureValues(x)) return false;
  objective_weight_[0] = obj_sign_ * obj_factor;
  sphes(values, -1, has_objective_ ? objective_weight_.data() : nullptr,
        m > 0 ? const_cast<Number*>(lambda) : nullptr);
  return true;
}

void AmplTnlp::finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x,
                                 const Number* z_L, const Number* z_U, Index m, const Number* g,
                                 const Number* lambda, Number obj_value,
                                 const Ipopt::IpoptData* /*ip_data*/,
                                 Ipopt::IpoptCalculatedQuantities* /*ip_cq*/) {
  solution_.available = true;
  solution_.status = status;
  solution_.objective = obj_sign_ * obj_value;
  solution_.x.assign(x, x + n);
  solution_.z_L.assign(z_L, z_L + n);
  solution_.z_U.assign(z_U, z_U + n);
  solution_.g.assign(g, g + m);
  solution_.lambda.assign(lambda, lambda + m);
}

double AmplTnlp::ModelObjective(const Number* x) {
  Number f = 0.0;
  if (!eval_f(n_, x, true, f)) return std::numeric_limits<double>::quiet_NaN();
  return obj_sign_ * f;
}

std::vector<double> AmplTnlp::AmplDuals() const {
  std::vector<double> y(solution_.lambda);
  for (double& v : y) v *= -obj_sign_;
  return y;
}

bool AmplTnlp::WriteSolution(const std::string& message, int result_num) {
  ASL_pfgh* asl = asl_;
  if (!solution_.available) return false;
  std::vector<double> x(solution_.x);
  std::vector<double> y = AmplDuals();
  Option_Info info;
  std::memset(&info, 0, sizeof info);
  info.wantsol = 1;  // write stub.sol even without -AMPL
  solve_result_num = result_num;
  std::vector<char> msg(message.begin(), message.end());
  msg.push_back('\0');
  write_sol(msg.data(), x.data(), m_ > 0 ? y.data() : nullptr, &info);
  return true;
}

}  // namespace qpm
