// CasadiCodegenTnlp: loads CasADi-generated nlp_* functions with dlopen and
// serves them as an Ipopt TNLP. All work arrays are sized once here, at
// construction; an evaluation only copies pointers.
#include "qpm/casadi/codegen_tnlp.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <initializer_list>
#include <limits>
#include <stdexcept>
#include <utility>

namespace qpm {

using Ipopt::Index;
using Ipopt::Number;

namespace {

const char kWho[] = "qpm::CasadiCodegenTnlp: ";
constexpr double kIpoptInfinity = 1e19;  // Ipopt's default nlp_{lower,upper}_bound_inf

// CasADi's C ABI (see the header).
extern "C" {
using EvalFn = int (*)(const double**, double**, CasadiInt*, double*, int);
using CountFn = CasadiInt (*)(void);
using SparsityFn = const CasadiInt* (*)(CasadiInt);
using WorkFn = int (*)(CasadiInt*, CasadiInt*, CasadiInt*, CasadiInt*);
using CheckoutFn = int (*)(void);
using ReleaseFn = void (*)(int);
using RefFn = void (*)(void);
}

std::string Shape(const CasadiSparsity& sp) {
  return std::to_string(sp.nrow) + "x" + std::to_string(sp.ncol);
}

class SharedLibrary {
 public:
  explicit SharedLibrary(const std::string& path)
      : path_(path), handle_(dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
    if (handle_ == nullptr) {
      const char* why = dlerror();
      throw std::runtime_error(kWho + std::string("cannot open '") + path +
                               "': " + (why ? why : "unknown dlopen error"));
    }
  }
  ~SharedLibrary() { dlclose(handle_); }
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // nullptr when absent (optional symbols).
  void* Find(const std::string& symbol) const { return dlsym(handle_, symbol.c_str()); }

  template <class Fn>
  Fn Require(const std::string& symbol) const {
    void* address = Find(symbol);
    if (address == nullptr) {
      throw std::runtime_error(kWho + std::string("symbol '") + symbol + "' not found in '" +
                               path_ + "'");
    }
    return reinterpret_cast<Fn>(address);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* handle_;
};

// One generated function with its own arg/res/iw/w arrays and memory slot.
class CasadiFunction {
 public:
  CasadiFunction(const SharedLibrary& lib, const std::string& name) : name_(name) {
    eval_ = lib.Require<EvalFn>(name);
    ReadSparsities(lib);
    AllocateWork(lib);
    AcquireMemory(lib);
  }
  ~CasadiFunction() {
    if (release_ != nullptr) release_(mem_);
    if (decref_ != nullptr) decref_();
  }
  CasadiFunction(const CasadiFunction&) = delete;
  CasadiFunction& operator=(const CasadiFunction&) = delete;

  const std::string& name() const { return name_; }
  Index n_in() const { return static_cast<Index>(in_.size()); }
  Index n_out() const { return static_cast<Index>(out_.size()); }
  const CasadiSparsity& In(Index i) const { return in_[i]; }
  const CasadiSparsity& Out(Index i) const { return out_[i]; }

  // Nonzeros of each input in, of each output out; false when F fails.
  bool Call(std::initializer_list<const double*> in, std::initializer_list<double*> out) {
    std::copy(in.begin(), in.end(), arg_.begin());
    std::copy(out.begin(), out.end(), res_.begin());
    return eval_(arg_.data(), res_.data(), iw_.data(), w_.data(), mem_) == 0;
  }

 private:
  void ReadSparsities(const SharedLibrary& lib) {
    const auto n_in = lib.Require<CountFn>(name_ + "_n_in")();
    const auto n_out = lib.Require<CountFn>(name_ + "_n_out")();
    const auto sp_in = lib.Require<SparsityFn>(name_ + "_sparsity_in");
    const auto sp_out = lib.Require<SparsityFn>(name_ + "_sparsity_out");
    for (CasadiInt i = 0; i < n_in; ++i) in_.push_back(Parse(sp_in(i), "input", i));
    for (CasadiInt i = 0; i < n_out; ++i) out_.push_back(Parse(sp_out(i), "output", i));
  }

  CasadiSparsity Parse(const CasadiInt* sp, const char* kind, CasadiInt i) const {
    try {
      return CasadiSparsity::FromCasadi(sp);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(kWho + name_ + " " + kind + " " + std::to_string(i) + ": " +
                               e.what());
    }
  }

  // CasADi lets F use arg/res beyond n_in/n_out as scratch: size by F_work.
  // Like CasADi's external(), a missing F_work means no work arrays.
  void AllocateWork(const SharedLibrary& lib) {
    CasadiInt sz_arg = n_in(), sz_res = n_out(), sz_iw = 0, sz_w = 0;
    const auto work = reinterpret_cast<WorkFn>(lib.Find(name_ + "_work"));
    if (work != nullptr && work(&sz_arg, &sz_res, &sz_iw, &sz_w) != 0) {
      throw std::runtime_error(kWho + name_ + "_work failed");
    }
    arg_.assign(std::max<CasadiInt>(sz_arg, n_in()), nullptr);
    res_.assign(std::max<CasadiInt>(sz_res, n_out()), nullptr);
    iw_.assign(sz_iw, 0);
    w_.assign(sz_w, 0.0);
  }

  // The optional symbols, tolerated when absent as CasADi's external() does
  // (which also requires them in pairs).
  void AcquireMemory(const SharedLibrary& lib) {
    RequirePair(lib, "_incref", "_decref");
    RequirePair(lib, "_checkout", "_release");
    if (auto incref = reinterpret_cast<RefFn>(lib.Find(name_ + "_incref"))) incref();
    decref_ = reinterpret_cast<RefFn>(lib.Find(name_ + "_decref"));
    if (auto checkout = reinterpret_cast<CheckoutFn>(lib.Find(name_ + "_checkout"))) {
      mem_ = checkout();
      release_ = reinterpret_cast<ReleaseFn>(lib.Find(name_ + "_release"));
    }
    if (mem_ < 0) {
      if (decref_ != nullptr) decref_();
      throw std::runtime_error(kWho + name_ + "_checkout returned no memory");
    }
  }

  void RequirePair(const SharedLibrary& lib, const char* a, const char* b) const {
    if ((lib.Find(name_ + a) == nullptr) != (lib.Find(name_ + b) == nullptr)) {
      throw std::runtime_error(kWho + name_ + a + " and " + name_ + b +
                               " must both be present or both absent in '" + lib.path() + "'");
    }
  }

  std::string name_;
  EvalFn eval_ = nullptr;
  ReleaseFn release_ = nullptr;
  RefFn decref_ = nullptr;
  int mem_ = 0;
  std::vector<CasadiSparsity> in_, out_;
  std::vector<const double*> arg_;
  std::vector<double*> res_;
  std::vector<CasadiInt> iw_;
  std::vector<double> w_;
};

// Dense position (row + col * nrow) of each nonzero: scatters a vector output
// that CasADi may have stored sparse (entries structurally zero).
std::vector<Index> DensePositions(const CasadiSparsity& sp) {
  const std::vector<Index> cols = sp.Columns();
  std::vector<Index> pos(sp.row.size());
  for (size_t k = 0; k < pos.size(); ++k) pos[k] = sp.row[k] + cols[k] * sp.nrow;
  return pos;
}

void Scatter(const std::vector<Index>& pos, const std::vector<double>& nz, Index n,
             Number* dense) {
  std::fill(dense, dense + n, 0.0);
  for (size_t k = 0; k < pos.size(); ++k) dense[pos[k]] = nz[k];
}

Index Numel(const CasadiSparsity& sp) { return sp.nrow * sp.ncol; }

// Fills `v` with `fallback` when empty, else checks its size.
void Resolve(std::vector<double>* v, Index n, double fallback, const char* what) {
  if (v->empty()) v->assign(n, fallback);
  if (static_cast<Index>(v->size()) != n) {
    throw std::invalid_argument(kWho + std::string(what) + " has " + std::to_string(v->size()) +
                                " entries, the model " + std::to_string(n));
  }
}

double ClampInfinity(double bound) {
  return std::min(kIpoptInfinity, std::max(-kIpoptInfinity, bound));
}

}  // namespace

// ---------------------------------------------------------------- sparsity

CasadiSparsity CasadiSparsity::FromCasadi(const CasadiInt* sp) {
  if (sp == nullptr) throw std::invalid_argument("null sparsity pattern");
  CasadiSparsity s;
  s.nrow = static_cast<Index>(sp[0]);
  s.ncol = static_cast<Index>(sp[1]);
  if (s.nrow < 0 || s.ncol < 0) throw std::invalid_argument("negative dimension");
  s.colind.resize(s.ncol + 1);
  if (sp[2] == 1) {  // dense short form [nrow, ncol, 1]
    for (Index c = 0; c <= s.ncol; ++c) s.colind[c] = c * s.nrow;
    s.row.resize(static_cast<size_t>(s.nrow) * s.ncol);
    for (size_t k = 0; k < s.row.size(); ++k) s.row[k] = static_cast<Index>(k % s.nrow);
    return s;
  }
  for (Index c = 0; c <= s.ncol; ++c) s.colind[c] = static_cast<Index>(sp[2 + c]);
  if (s.colind[0] != 0) throw std::invalid_argument("colind[0] is neither 0 nor 1");
  for (Index c = 0; c < s.ncol; ++c) {
    if (s.colind[c] > s.colind[c + 1]) throw std::invalid_argument("decreasing colind");
  }
  s.row.assign(sp + 3 + s.ncol, sp + 3 + s.ncol + s.nnz());
  for (Index r : s.row) {
    if (r < 0 || r >= s.nrow) throw std::invalid_argument("row index out of range");
  }
  return s;
}

bool CasadiSparsity::IsUpperTriangular() const {
  const std::vector<Index> cols = Columns();
  for (size_t k = 0; k < row.size(); ++k) {
    if (row[k] > cols[k]) return false;
  }
  return true;
}

std::vector<Index> CasadiSparsity::Columns() const {
  std::vector<Index> cols(row.size());
  for (Index c = 0; c < ncol; ++c) {
    std::fill(cols.begin() + colind[c], cols.begin() + colind[c + 1], c);
  }
  return cols;
}

// ------------------------------------------------------------------ model

struct CasadiCodegenTnlp::Model {
  Model(const std::string& path, const std::string& prefix)
      : lib(path),
        f(lib, prefix + "f"),
        g(lib, prefix + "g"),
        grad_f(lib, prefix + "grad_f"),
        jac_g(lib, prefix + "jac_g") {
    if (lib.Find(prefix + "hess_l") != nullptr) {
      hess_l = std::make_unique<CasadiFunction>(lib, prefix + "hess_l");
    }
    ExpectCounts(f, 2, 1);
    ExpectCounts(g, 2, 1);
    ExpectCounts(grad_f, 2, 2);
    ExpectCounts(jac_g, 2, 2);
    if (hess_l) ExpectCounts(*hess_l, 4, 1);
    nx = Numel(f.In(0));  // the sizes come from nlp_f and nlp_g; all others must agree
    np = Numel(f.In(1));
    ng = Numel(g.Out(0));
    Validate();
    BuildMaps();
  }

  void Fail(const CasadiFunction& fn, const std::string& what) const {
    throw std::runtime_error(kWho + fn.name() + " in '" + lib.path() + "': " + what);
  }

  void ExpectCounts(const CasadiFunction& fn, Index n_in, Index n_out) const {
    if (fn.n_in() != n_in || fn.n_out() != n_out) {
      Fail(fn, std::to_string(fn.n_in()) + " inputs and " + std::to_string(fn.n_out()) +
                   " outputs, expected " + std::to_string(n_in) + " and " +
                   std::to_string(n_out));
    }
  }

  // Inputs are read as dense vectors of the given length.
  void ExpectDenseInput(const CasadiFunction& fn, Index i, Index n, const char* what) const {
    const CasadiSparsity& sp = fn.In(i);
    if (Numel(sp) != n || !sp.IsDense() || (sp.ncol != 1 && sp.nrow != 1 && n > 0)) {
      Fail(fn, "input " + std::to_string(i) + " (" + what + ") is " + Shape(sp) +
                   (sp.IsDense() ? "" : " sparse") + ", expected a dense vector of " +
                   std::to_string(n));
    }
  }

  void ExpectOutput(const CasadiFunction& fn, Index i, Index numel, const char* what) const {
    const CasadiSparsity& sp = fn.Out(i);
    if (Numel(sp) != numel || (sp.ncol != 1 && sp.nrow != 1 && numel > 0)) {
      Fail(fn, "output " + std::to_string(i) + " (" + what + ") is " + Shape(sp) +
                   ", expected a vector of " + std::to_string(numel));
    }
  }

  void ExpectXp(const CasadiFunction& fn) const {
    ExpectDenseInput(fn, 0, nx, "x");
    ExpectDenseInput(fn, 1, np, "p");
  }

  void Validate() const {
    for (const CasadiFunction* fn : {&f, &g, &grad_f, &jac_g}) ExpectXp(*fn);
    ExpectOutput(f, 0, 1, "f");
    ExpectOutput(g, 0, ng, "g");
    ExpectOutput(grad_f, 0, 1, "f");
    ExpectOutput(grad_f, 1, nx, "grad_f");
    ExpectOutput(jac_g, 0, ng, "g");
    const CasadiSparsity& jac = jac_g.Out(1);
    if (jac.nrow != ng || jac.ncol != nx) {
      Fail(jac_g, "output 1 (jac_g) is " + Shape(jac) + ", expected " + std::to_string(ng) +
                      "x" + std::to_string(nx) + " (ng x nx)");
    }
    if (hess_l) ValidateHessian();
  }

  void ValidateHessian() const {
    ExpectXp(*hess_l);
    ExpectDenseInput(*hess_l, 2, 1, "lam_f");
    ExpectDenseInput(*hess_l, 3, ng, "lam_g");
    const CasadiSparsity& h = hess_l->Out(0);
    if (h.nrow != nx || h.ncol != nx) {
      Fail(*hess_l, "output 0 is " + Shape(h) + ", expected " + std::to_string(nx) + "x" +
                        std::to_string(nx));
    }
    if (!h.IsUpperTriangular()) Fail(*hess_l, "the Hessian must be an upper triangle");
  }

  void BuildMaps() {
    f_pos = DensePositions(f.Out(0));
    grad_f_pos[0] = DensePositions(grad_f.Out(0));
    grad_f_pos[1] = DensePositions(grad_f.Out(1));
    g_pos = DensePositions(g.Out(0));
    jac_cols = jac_g.Out(1).Columns();
    if (hess_l) hess_cols = hess_l->Out(0).Columns();
    f_nz.resize(f_pos.size());
    grad_f_nz[0].resize(grad_f_pos[0].size());
    grad_f_nz[1].resize(grad_f_pos[1].size());
    g_nz.resize(std::max(g_pos.size(), jac_g.Out(0).row.size()));
  }

  SharedLibrary lib;
  CasadiFunction f, g, grad_f, jac_g;
  std::unique_ptr<CasadiFunction> hess_l;
  Index nx = 0, ng = 0, np = 0;
  // Scatter maps and nonzero buffers of the vector outputs.
  std::vector<Index> f_pos, grad_f_pos[2], g_pos, jac_cols, hess_cols;
  std::vector<double> f_nz, grad_f_nz[2], g_nz;
};

// ------------------------------------------------------------------- TNLP

CasadiCodegenTnlp::CasadiCodegenTnlp(const std::string& library_path, CasadiNlpInputs inputs,
                                     const std::string& prefix)
    : model_(std::make_unique<Model>(library_path, prefix)) {
  SetInputs(inputs);
}

CasadiCodegenTnlp::~CasadiCodegenTnlp() = default;

Index CasadiCodegenTnlp::nx() const { return model_->nx; }
Index CasadiCodegenTnlp::ng() const { return model_->ng; }
Index CasadiCodegenTnlp::np() const { return model_->np; }
bool CasadiCodegenTnlp::HasHessian() const { return model_->hess_l != nullptr; }
const CasadiSparsity& CasadiCodegenTnlp::JacobianSparsity() const {
  return model_->jac_g.Out(1);
}
const CasadiSparsity& CasadiCodegenTnlp::HessianSparsity() const {
  static const CasadiSparsity kEmpty;
  return model_->hess_l ? model_->hess_l->Out(0) : kEmpty;
}

void CasadiCodegenTnlp::SetInputs(const CasadiNlpInputs& inputs) {
  const double inf = std::numeric_limits<double>::infinity();
  CasadiNlpInputs r = inputs;  // resolved; inputs_ changes only when all fit
  Resolve(&r.x0, nx(), 0.0, "x0");
  Resolve(&r.p, np(), 0.0, "p");
  Resolve(&r.lbx, nx(), -inf, "lbx");
  Resolve(&r.ubx, nx(), inf, "ubx");
  Resolve(&r.lbg, ng(), -inf, "lbg");
  Resolve(&r.ubg, ng(), inf, "ubg");
  inputs_ = std::move(r);
}

void CasadiCodegenTnlp::SetStartPoint(const std::vector<double>& x0) {
  CasadiNlpInputs next = inputs_;
  next.x0 = x0;
  SetInputs(next);
}

void CasadiCodegenTnlp::SetParameters(const std::vector<double>& p) {
  CasadiNlpInputs next = inputs_;
  next.p = p;
  SetInputs(next);
}

bool CasadiCodegenTnlp::get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                                     IndexStyleEnum& index_style) {
  n = nx();
  m = ng();
  nnz_jac_g = JacobianSparsity().nnz();
  nnz_h_lag = HessianSparsity().nnz();
  index_style = C_STYLE;
  return true;
}

bool CasadiCodegenTnlp::get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                                        Number* g_u) {
  for (Index i = 0; i < n; ++i) x_l[i] = ClampInfinity(inputs_.lbx[i]);
  for (Index i = 0; i < n; ++i) x_u[i] = ClampInfinity(inputs_.ubx[i]);
  for (Index i = 0; i < m; ++i) g_l[i] = ClampInfinity(inputs_.lbg[i]);
  for (Index i = 0; i < m; ++i) g_u[i] = ClampInfinity(inputs_.ubg[i]);
  return true;
}

// Multiplier guesses are not part of CasadiNlpInputs: zeros.
bool CasadiCodegenTnlp::get_starting_point(Index n, bool init_x, Number* x, bool init_z,
                                           Number* z_L, Number* z_U, Index m, bool init_lambda,
                                           Number* lambda) {
  if (init_x) std::copy(inputs_.x0.begin(), inputs_.x0.end(), x);
  if (init_z) std::fill(z_L, z_L + n, 0.0);
  if (init_z) std::fill(z_U, z_U + n, 0.0);
  if (init_lambda) std::fill(lambda, lambda + m, 0.0);
  return true;
}

bool CasadiCodegenTnlp::eval_f(Index, const Number* x, bool, Number& obj_value) {
  Model& mo = *model_;
  if (!mo.f.Call({x, inputs_.p.data()}, {mo.f_nz.data()})) return false;
  obj_value = mo.f_nz.empty() ? 0.0 : mo.f_nz[0];  // a structurally zero f has no nonzero
  return true;
}

bool CasadiCodegenTnlp::eval_grad_f(Index n, const Number* x, bool, Number* grad_f) {
  Model& mo = *model_;
  if (!mo.grad_f.Call({x, inputs_.p.data()}, {mo.grad_f_nz[0].data(), mo.grad_f_nz[1].data()})) {
    return false;
  }
  Scatter(mo.grad_f_pos[1], mo.grad_f_nz[1], n, grad_f);
  return true;
}

bool CasadiCodegenTnlp::eval_g(Index, const Number* x, bool, Index m, Number* g) {
  Model& mo = *model_;
  if (!mo.g.Call({x, inputs_.p.data()}, {mo.g_nz.data()})) return false;
  Scatter(mo.g_pos, mo.g_nz, m, g);
  return true;
}

bool CasadiCodegenTnlp::eval_jac_g(Index, const Number* x, bool, Index, Index nele_jac,
                                   Index* iRow, Index* jCol, Number* values) {
  Model& mo = *model_;
  if (values == nullptr) {
    const CasadiSparsity& sp = JacobianSparsity();
    std::copy(sp.row.begin(), sp.row.end(), iRow);
    std::copy(mo.jac_cols.begin(), mo.jac_cols.end(), jCol);
    return nele_jac == sp.nnz();
  }
  // nlp_jac_g also returns g: received in g_nz and dropped.
  return mo.jac_g.Call({x, inputs_.p.data()}, {mo.g_nz.data(), values});
}

// CasADi's upper-triangle entry (r, c), r <= c, is Ipopt's lower (c, r).
bool CasadiCodegenTnlp::eval_h(Index, const Number* x, bool, Number obj_factor, Index,
                               const Number* lambda, bool, Index nele_hess, Index* iRow,
                               Index* jCol, Number* values) {
  Model& mo = *model_;
  if (!mo.hess_l) return false;
  if (values == nullptr) {
    const CasadiSparsity& sp = HessianSparsity();
    std::copy(mo.hess_cols.begin(), mo.hess_cols.end(), iRow);
    std::copy(sp.row.begin(), sp.row.end(), jCol);
    return nele_hess == sp.nnz();
  }
  return mo.hess_l->Call({x, inputs_.p.data(), &obj_factor, lambda}, {values});
}

void CasadiCodegenTnlp::finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x,
                                          const Number* z_L, const Number* z_U, Index m,
                                          const Number* g, const Number* lambda,
                                          Number obj_value, const Ipopt::IpoptData*,
                                          Ipopt::IpoptCalculatedQuantities*) {
  result_.finalized = true;
  result_.status = status;
  result_.f = obj_value;
  result_.x.assign(x, x + n);
  result_.g.assign(g, g + m);
  result_.lam_g.assign(lambda, lambda + m);
  result_.lam_x.resize(n);
  for (Index i = 0; i < n; ++i) result_.lam_x[i] = z_U[i] - z_L[i];
}

}  // namespace qpm
