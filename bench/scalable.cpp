// Two scalable families with bounds and inequality rows, each solved in the
// form with inequalities and in an "equality form" that has the same solution,
// one solve per process (its peak RSS is its own). Prints one CSV row (kHeader).
// QPM runs at its defaults with only tol set (the one-line user); Ipopt the same.
//
// Family "obstacle" (bounds only, m = 0): the two-obstacle membrane problem,
// P1 finite elements on a uniform triangulation of the unit square, s x s
// interior nodes, h = 1 / (s + 1), n = s^2:
//
//   f(u) = 1/2 u' K u - h^2 F' u,    K = 5-point stencil (4 on the diagonal,
//                                    -1 per neighbour; u = 0 on the boundary)
//   F(x, y) = 50 sin(2 pi x) sin(2 pi y) + 20 (x - y)
//   -0.2 - 0.2 x  <=  u(x, y)  <=  0.2 + 0.2 y
//
// The unconstrained membrane reaches about +-0.63, so both obstacles are hit
// in two lobes each. K's condition number grows like n (about 0.4 n), and its
// diagonal is constant (Jacobi does nothing), so CG needs O(sqrt(n)) products
// per accurate solve.
//
// Family "obstacle-step": the same grid, obstacles and F, one implicit Euler
// step of length dt = h^2 of the parabolic two-obstacle problem
// u_t - Laplace u = F from the state U = 0.8 sin(pi x) sin(2 pi y), with a
// lumped mass matrix, divided by h^2:
//
//   f(u) = 1/2 u' (I + K) u - (U + h^2 F)' u
//
// whose Hessian I + K has condition number below 9 at every n: the control
// case where CG's cost per solve is independent of n.
//
// Forms (both obstacle families):
//   bounds  the model above;
//   fixed   the contact set of a solution of `bounds` (read from
//           --solution-in) given as fixed variables x_l = x_u = obstacle, all
//           other variables free: the bound constraints active at the solution
//           as equalities, the same solution;
//   free    no bounds at all (the same K and load; a different solution).
//
// Family "chain" (m = n - 2 nonlinear rows, no bounds): bench/inequality_chain's
// model with data manufactured so that every row is active at a known solution:
//
//   f(x) = sum_i (x_i - a_i)^2 + 0.1 x_i^4
//   g_j(x) = x_j^2 + x_{j+1}^2 + x_{j+2}^2 <= 1.5 (form inequality) or = 1.5
//   (form equality),  j = 0 .. n - 3,   x_0 = 0.1
//   x*_i = sqrt(0.3, 0.5, 0.7 for i mod 3 = 0, 1, 2)   (every row = 1.5)
//   lambda*_j = 1 + 0.5 sin(j) > 0
//   a_i = x*_i + 0.2 x*_i^3 + x*_i sum_{rows j containing i} lambda*_j
//
// so that grad f(x*) + J(x*)' lambda* = 0. f and every g_j are convex, so x*
// is the unique solution of the inequality form, and a KKT point (with the
// same multipliers) of the equality form; err reports ||x - x*||_inf.
//
//   scalable --family obstacle|obstacle-step|band|chain --n N --form F --solver qpm|ipopt
//            [--tol T] [--solution-in FILE] [--solution-out FILE] [--trace] [--header]
//            [--option name=value]...
//
// --option sets one more solver option (diagnostic runs only; the tables are
// made without it).
// --trace prints each iteration (intermediate_callback) and QPM's subproblems
// (beta, inner iterations, Hv products) to stderr.
//
// For the obstacle families, n is rounded to s^2 with s = round(sqrt(n)).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <IpIpoptApplication.hpp>
#include <IpTNLP.hpp>
#include <qpm/qpm.hpp>

using Ipopt::Index;
using Ipopt::Number;
using Ipopt::SmartPtr;

namespace {

constexpr const char* kHeader =
    "family,form,solver,n,m,status,f,err,kkt,viol,active,outer,inner,inner_per_sub,"
    "max_inner_sub,max_inner_beta,hv,hv_per_inner,wall_s,peak_rss_mb";
constexpr double kInf = 1e20;
constexpr double kPi = 3.14159265358979323846;

// Records what finalize_solution returned.
class Recording : public Ipopt::TNLP {
 public:
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

// ---------------------------------------------------------------- obstacle

class Obstacle : public Recording {
 public:
  enum class Form { kBounds, kFixed, kFree };
  // `contact` (size s^2, only for kFixed): the value each fixed variable
  // takes, NaN for a free one.
  // step: the time-step model (diagonal 1 + 4, load U + h^2 F; see the top).
  Obstacle(int s, Form form, bool step, std::vector<double> contact = {})
      : s_(s), n_(s * s), h_(1.0 / (s + 1)), form_(form), step_(step),
        contact_(std::move(contact)) {
    load_.resize(n_), lower_.resize(n_), upper_.resize(n_);
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const double x = (i + 1) * h_, y = (j + 1) * h_;
        load_[Node(i, j)] = h_ * h_ * Load(x, y) + (step_ ? State(x, y) : 0.0);
        lower_[Node(i, j)] = -0.2 - 0.2 * x;
        upper_[Node(i, j)] = 0.2 + 0.2 * y;
      }
    }
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = n_, m = 0, nnz_jac = 0, nnz_h = n_ + 2 * s_ * (s_ - 1), style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number*, Number*) override {
    for (int k = 0; k < n_; ++k) {
      x_l[k] = -kInf, x_u[k] = kInf;
      if (form_ == Form::kBounds) x_l[k] = lower_[k], x_u[k] = upper_[k];
      if (form_ == Form::kFixed && !std::isnan(contact_[k])) x_l[k] = x_u[k] = contact_[k];
    }
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n_, 0.0);
    return true;
  }
  bool eval_f(Index, const Number* u, bool, Number& f) override {
    std::vector<double> ku(n_);
    Apply(u, ku.data());
    f = 0.0;
    for (int k = 0; k < n_; ++k) f += 0.5 * u[k] * ku[k] - load_[k] * u[k];
    return true;
  }
  bool eval_grad_f(Index, const Number* u, bool, Number* grad) override {
    Apply(u, grad);
    for (int k = 0; k < n_; ++k) grad[k] -= load_[k];
    return true;
  }
  bool eval_g(Index, const Number*, bool, Index, Number*) override { return true; }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index*, Index*, Number*) override {
    return true;
  }
  // Lower triangle: the diagonal, then each node's right and upper neighbour.
  bool eval_h(Index, const Number*, bool, Number sigma, Index, const Number*, bool, Index,
              Index* row, Index* col, Number* values) override {
    int e = 0;
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const int k = Node(i, j);
        if (values) {
          values[e++] = (step_ ? 5.0 : 4.0) * sigma;
          if (i + 1 < s_) values[e++] = -sigma;
          if (j + 1 < s_) values[e++] = -sigma;
          continue;
        }
        row[e] = col[e] = k, ++e;
        if (i + 1 < s_) row[e] = Node(i + 1, j), col[e] = k, ++e;
        if (j + 1 < s_) row[e] = Node(i, j + 1), col[e] = k, ++e;
      }
    }
    return true;
  }

  // ||u - P(u - grad f(u))||_inf over the model's own bounds (form bounds),
  // the free entries only (fixed), or all (free).
  double ProjectedGradient(const std::vector<double>& u) {
    std::vector<double> grad(n_), x_l(n_), x_u(n_);
    eval_grad_f(n_, u.data(), true, grad.data());
    get_bounds_info(n_, x_l.data(), x_u.data(), 0, nullptr, nullptr);
    double r = 0.0;
    for (int k = 0; k < n_; ++k) {
      const double p = std::min(x_u[k], std::max(x_l[k], u[k] - grad[k]));
      r = std::max(r, std::abs(u[k] - p));
    }
    return r;
  }
  // max(0, lower - u, u - upper) over the obstacles (every form).
  double ObstacleViolation(const std::vector<double>& u) const {
    double v = 0.0;
    for (int k = 0; k < n_; ++k) v = std::max({v, lower_[k] - u[k], u[k] - upper_[k]});
    return v;
  }
  // u where u touches an obstacle (|u - obstacle| <= tol), NaN elsewhere.
  std::vector<double> ContactSet(const std::vector<double>& u, double tol, int* count) const {
    std::vector<double> contact(n_, NAN);
    *count = 0;
    for (int k = 0; k < n_; ++k) {
      if (u[k] - lower_[k] <= tol) contact[k] = lower_[k], ++*count;
      else if (upper_[k] - u[k] <= tol) contact[k] = upper_[k], ++*count;
    }
    return contact;
  }

 private:
  // Not an eigenfunction of the Laplacian (CG would converge in one step).
  static double Load(double x, double y) {
    return 50.0 * std::sin(2 * kPi * x) * std::sin(2 * kPi * y) + 20.0 * (x - y);
  }
  int Node(int i, int j) const { return i + s_ * j; }
  // U of the time-step model: a state that crosses both obstacles.
  static double State(double x, double y) { return 0.8 * std::sin(kPi * x) * std::sin(2 * kPi * y); }
  void Apply(const Number* u, Number* out) const {  // out = K u, or (I + K) u
    for (int j = 0; j < s_; ++j) {
      for (int i = 0; i < s_; ++i) {
        const int k = Node(i, j);
        double v = (step_ ? 5.0 : 4.0) * u[k];
        if (i > 0) v -= u[k - 1];
        if (i + 1 < s_) v -= u[k + 1];
        if (j > 0) v -= u[k - s_];
        if (j + 1 < s_) v -= u[k + s_];
        out[k] = v;
      }
    }
  }
  int s_, n_;
  double h_;
  Form form_;
  bool step_;
  std::vector<double> contact_, load_, lower_, upper_;
};

// ------------------------------------------------------------ chain, band

// g_j(x) = sum_d w_d x_{j+d}^2 <= r_j (or = r_j) with r_j = g_j(x*) and a
// chosen so that (x*, lambda*) is a KKT point (see the top of the file).
class Chain : public Recording {
 public:
  // band: w = (1, 0.5, 0.25), x*_i = 0.6 + 0.2 sin(0.7 i); otherwise the
  // chain of bench/inequality_chain.cpp: w = (1, 1, 1), x*_i^2 = 0.3, 0.5, 0.7.
  Chain(int n, bool inequality, bool band)
      : n_(n), inequality_(inequality), x_star_(n), a_(n), rhs_(n - 2) {
    const double squares[3] = {0.3, 0.5, 0.7};
    if (band) w_[0] = 1.0, w_[1] = 0.5, w_[2] = 0.25;
    for (int i = 0; i < n_; ++i) {
      x_star_[i] = band ? 0.6 + 0.2 * std::sin(0.7 * i) : std::sqrt(squares[i % 3]);
    }
    eval_g(n_, x_star_.data(), true, n_ - 2, rhs_.data());
    for (int i = 0; i < n_; ++i) {
      double rows = 0.0;  // sum of w_{i-j} lambda*_j over the rows j = i-2 .. i that exist
      for (int j = std::max(0, i - 2); j <= std::min(i, n_ - 3); ++j) rows += w_[i - j] * LambdaStar(j);
      const double x = x_star_[i];
      a_[i] = x + 0.2 * x * x * x + x * rows;
    }
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h,
                    IndexStyleEnum& style) override {
    n = n_, m = n_ - 2, nnz_jac = 3 * m, nnz_h = n_, style = C_STYLE;
    return true;
  }
  bool get_bounds_info(Index, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    for (int i = 0; i < n_; ++i) x_l[i] = -kInf, x_u[i] = kInf;
    for (int j = 0; j < m; ++j) g_l[j] = inequality_ ? -kInf : rhs_[j], g_u[j] = rhs_[j];
    return true;
  }
  bool get_starting_point(Index, bool, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    std::fill(x, x + n_, 0.1);
    return true;
  }
  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0.0;
    for (int i = 0; i < n_; ++i) f += (x[i] - a_[i]) * (x[i] - a_[i]) + 0.1 * std::pow(x[i], 4);
    return true;
  }
  bool eval_grad_f(Index, const Number* x, bool, Number* g) override {
    for (int i = 0; i < n_; ++i) g[i] = 2.0 * (x[i] - a_[i]) + 0.4 * x[i] * x[i] * x[i];
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index m, Number* g) override {
    for (int j = 0; j < m; ++j) {
      g[j] = w_[0] * x[j] * x[j] + w_[1] * x[j + 1] * x[j + 1] + w_[2] * x[j + 2] * x[j + 2];
    }
    return true;
  }
  bool eval_jac_g(Index, const Number* x, bool, Index m, Index, Index* row, Index* col,
                  Number* values) override {
    for (int j = 0, k = 0; j < m; ++j) {
      for (int d = 0; d < 3; ++d, ++k) {
        if (values) values[k] = 2.0 * w_[d] * x[j + d];
        else row[k] = j, col[k] = j + d;
      }
    }
    return true;
  }
  bool eval_h(Index, const Number* x, bool, Number sigma, Index m, const Number* lambda, bool,
              Index, Index* row, Index* col, Number* values) override {
    if (!values) {
      for (int i = 0; i < n_; ++i) row[i] = col[i] = i;
      return true;
    }
    for (int i = 0; i < n_; ++i) values[i] = sigma * (2.0 + 1.2 * x[i] * x[i]);
    for (int j = 0; j < m; ++j) {
      for (int d = 0; d < 3; ++d) values[j + d] += 2.0 * w_[d] * lambda[j];
    }
    return true;
  }

  double Error(const std::vector<double>& x) const {
    double e = 0.0;
    for (int i = 0; i < n_; ++i) e = std::max(e, std::abs(x[i] - x_star_[i]));
    return e;
  }
  // max over rows of the violation: max(0, g - r) or |g - r|.
  double Violation(const std::vector<double>& x) {
    std::vector<double> g(n_ - 2);
    eval_g(n_, x.data(), true, n_ - 2, g.data());
    double v = 0.0;
    for (int j = 0; j < n_ - 2; ++j) {
      v = std::max(v, inequality_ ? g[j] - rhs_[j] : std::abs(g[j] - rhs_[j]));
    }
    return v;
  }
  // ||grad f + J' lambda||_inf.
  double Kkt(const std::vector<double>& x, const std::vector<double>& lambda) {
    std::vector<double> r(n_);
    eval_grad_f(n_, x.data(), true, r.data());
    for (int j = 0; j < n_ - 2; ++j) {
      for (int d = 0; d < 3; ++d) r[j + d] += 2.0 * w_[d] * x[j + d] * lambda[j];
    }
    double k = 0.0;
    for (double ri : r) k = std::max(k, std::abs(ri));
    return k;
  }
  // Rows with g_j >= r_j - tol.
  int Active(const std::vector<double>& x, double tol) {
    std::vector<double> g(n_ - 2);
    eval_g(n_, x.data(), true, n_ - 2, g.data());
    int count = 0;
    for (int j = 0; j < n_ - 2; ++j) count += g[j] >= rhs_[j] - tol;
    return count;
  }

 private:
  static double LambdaStar(int j) { return 1.0 + 0.5 * std::sin(j); }
  int n_;
  bool inequality_;
  double w_[3] = {1.0, 1.0, 1.0};
  std::vector<double> x_star_, a_, rhs_;
};

// ------------------------------------------------------------------ driver

double PeakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;  // kilobytes on Linux
}

std::vector<double> ReadVector(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<double> v;
  double d;
  while (in.read(reinterpret_cast<char*>(&d), sizeof d)) v.push_back(d);
  return v;
}

void WriteVector(const std::string& path, const std::vector<double>& v) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
}

struct Args {
  std::string family = "obstacle", form = "bounds", solver = "qpm", solution_in, solution_out;
  bool trace = false;  // QPM's subproblems to stderr
  std::vector<std::pair<std::string, std::string>> options;  // --option name=value
  long n = 1000;
  double tol = 1e-8;
};

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (arg == "--family") a.family = next();
    else if (arg == "--form") a.form = next();
    else if (arg == "--solver") a.solver = next();
    else if (arg == "--n") a.n = std::lround(std::atof(next().c_str()));
    else if (arg == "--tol") a.tol = std::atof(next().c_str());
    else if (arg == "--solution-in") a.solution_in = next();
    else if (arg == "--solution-out") a.solution_out = next();
    else if (arg == "--trace") a.trace = true;
    else if (arg == "--option") {
      const std::string o = next();
      const size_t eq = o.find('=');
      if (eq == std::string::npos) { std::fprintf(stderr, "--option wants name=value\n"); return 2; }
      a.options.emplace_back(o.substr(0, eq), o.substr(eq + 1));
    }
    else if (arg == "--header") { std::printf("%s\n", kHeader); return 0; }
    else { std::fprintf(stderr, "unknown argument %s\n", arg.c_str()); return 2; }
  }
  SmartPtr<Recording> tnlp;
  Obstacle* obstacle = nullptr;
  Chain* chain = nullptr;
  const double contact_tol = 1e-7;  // |u - obstacle| counted as contact
  if (a.family == "obstacle" || a.family == "obstacle-step") {
    const bool step = a.family == "obstacle-step";
    const int s = static_cast<int>(std::lround(std::sqrt(double(a.n))));
    a.n = long(s) * s;
    Obstacle::Form form = a.form == "fixed" ? Obstacle::Form::kFixed
                          : a.form == "free" ? Obstacle::Form::kFree : Obstacle::Form::kBounds;
    std::vector<double> contact;
    if (form == Obstacle::Form::kFixed) {
      const std::vector<double> u = ReadVector(a.solution_in);
      if (long(u.size()) != a.n) { std::fprintf(stderr, "bad --solution-in\n"); return 2; }
      int count = 0;
      contact = Obstacle(s, Obstacle::Form::kBounds, step).ContactSet(u, contact_tol, &count);
    }
    tnlp = obstacle = new Obstacle(s, form, step, contact);
  } else {
    tnlp = chain = new Chain(static_cast<int>(a.n), a.form != "equality", a.family == "band");
  }
  tnlp->trace_ = a.trace;
  SmartPtr<Ipopt::IpoptApplication> app;
  if (a.solver == "ipopt") app = IpoptApplicationFactory();
  else app = new qpm::QpmApplication();
  app->Options()->SetNumericValue("tol", a.tol);
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  for (const auto& [name, value] : a.options) {
    if (!qpm::SetOptionFromText(*app->Options(), name, value)) {
      std::fprintf(stderr, "cannot set option %s\n", name.c_str());
      return 2;
    }
  }
  app->Initialize("");
  const auto start = std::chrono::steady_clock::now();
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(tnlp);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double rss = PeakRssMb();

  const std::vector<double>& x = tnlp->x_;
  double err = NAN, kkt = NAN, viol = NAN;
  long m = 0, active = 0;
  if (x.size() == static_cast<size_t>(a.n)) {
    if (obstacle) {
      kkt = obstacle->ProjectedGradient(x);
      viol = obstacle->ObstacleViolation(x);
      int count = 0;
      obstacle->ContactSet(x, contact_tol, &count);
      active = count;
      if (!a.solution_in.empty()) {  // distance to the solution the contact set came from
        const std::vector<double> ref = ReadVector(a.solution_in);
        err = 0.0;
        for (long k = 0; k < a.n; ++k) err = std::max(err, std::abs(x[k] - ref[k]));
      }
      if (!a.solution_out.empty()) WriteVector(a.solution_out, x);
    } else {
      m = a.n - 2;
      err = chain->Error(x);
      kkt = chain->Kkt(x, tnlp->lambda_);
      viol = chain->Violation(x);
      active = chain->Active(x, contact_tol);
    }
  }
  if (chain) m = a.n - 2;
  int outer = 0;
  long inner = app->Statistics()->IterationCount(), hv = 0, max_inner = 0;
  double max_inner_beta = NAN;
  if (auto* q = dynamic_cast<qpm::QpmApplication*>(GetRawPtr(app))) {
    const qpm::Summary& s = q->LastSummary();
    outer = s.outer_iterations, inner = s.inner_iterations, hv = s.hess_products;
    long hv_before = 0;
    for (const qpm::OuterRecord& r : s.outer) {
      if (a.trace) {
        std::fprintf(stderr, "k %d beta %.3g inner %ld hv %ld status %d ||c|| %.3e |grad Q| %.3e tau %.3e\n",
                     r.k, r.beta, r.inner_iterations, r.hess_products - hv_before,
                     static_cast<int>(r.inner_status), r.c_norm, r.grad_q_norm, r.tau);
      }
      hv_before = r.hess_products;
      if (r.inner_iterations > max_inner) max_inner = r.inner_iterations, max_inner_beta = r.beta;
    }
  }
  const int subproblems = std::max(outer, 1);
  std::printf("%s,%s,%s,%ld,%ld,%s,%.12g,%.3e,%.3e,%.3e,%ld,%d,%ld,%.2f,%ld,%.3g,%ld,%.2f,%.3f,%.1f\n",
              a.family.c_str(), a.form.c_str(), a.solver.c_str(), a.n, m, qpm::StatusName(status),
              tnlp->f_, err, kkt, viol, active, outer, inner, double(inner) / subproblems, max_inner,
              max_inner_beta, hv, inner ? double(hv) / inner : 0.0, wall, rss);
  return 0;
}
