// The symbolic cost of the two Newton matrices a penalty method can factor
// for one TNLP (issue 36, "a factorization with the fill of Ipopt's KKT
// matrix ... chosen against W + beta J^T J by its symbolic cost"):
//
//   H = W + beta J_z^T J_z                 (n_z x n_z, what qpm factors)
//   K = [W + D, J_z^T; J_z, -I / beta]     (n_z + m, the quasi-definite
//                                            augmented system, Ipopt's fill)
//
// z is qpm's layout: the variables that are not fixed (x_l < x_u), then one
// slack per inequality row (J_z's row has -1 in its slack's column). Both
// patterns get the whole diagonal. CHOLMOD analyzes each with its default
// orderings and reports nnz(L) and the flops of one numeric factorization;
// nothing is factored. The values do not matter: only the patterns.
//
//   kkt_fill --nl model.nl | --acopf case.m | --scalable NAME N   [--header]
//
// NAME: ipopt_scalable's models (distributed2d, neumann2d, boundary2d,
// boundary3d, lukvle4, lukvli4), or sphere (Rosenbrock on the sphere, N
// even: one dense row). Prints one CSV row (kHeader); where J_z^T J_z alone
// would have more than kMaxProductEntries entries, H is not analyzed and
// its nnz_L_H is given as ">" that count.
#include <cholmod.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <IpTNLP.hpp>

#include "acopf_tnlp.hpp"
#include "boundary_control_2d_tnlp.hpp"
#include "boundary_control_3d_tnlp.hpp"
#include "distributed_control_2d_tnlp.hpp"
#include "distributed_control_neumann_2d_tnlp.hpp"
#include "luksan_vlcek4_tnlp.hpp"
#include "matpower_case.hpp"
#include "rosenbrock_sphere_tnlp.hpp"
#ifdef QPM_KKT_FILL_AMPL
#include <qpm/ampl/ampl_tnlp.hpp>
#endif

namespace {

using Ipopt::Index;
using Ipopt::Number;

constexpr const char* kHeader =
    "model,n_z,m,nnz_jac,nnz_w,nnz_L_H,flops_H,nnz_L_K,flops_K,flops_H_over_K";

// A symmetric pattern by its lower triangle: (row >= col) pairs.
using Pattern = std::vector<std::pair<int, int>>;

struct Structure {
  int n_z = 0, m = 0;
  std::vector<int> column;            // of each variable in z, or -1 (fixed)
  std::vector<int> slack;             // column of each row's slack, or -1
  std::vector<std::vector<int>> rows; // J_z's columns, row by row
  Pattern w;                          // W's lower triangle in z
};

bool Read(Ipopt::TNLP& tnlp, Structure* s, std::string* why) {
  Index n = 0, m = 0, nnz_j = 0, nnz_h = 0;
  Ipopt::TNLP::IndexStyleEnum style;
  if (!tnlp.get_nlp_info(n, m, nnz_j, nnz_h, style)) return *why = "get_nlp_info failed", false;
  std::vector<Number> xl(n), xu(n), gl(m), gu(m);
  if (!tnlp.get_bounds_info(n, xl.data(), xu.data(), m, gl.data(), gu.data())) {
    return *why = "get_bounds_info failed", false;
  }
  const int base = style == Ipopt::TNLP::FORTRAN_STYLE ? 1 : 0;
  s->m = m;
  s->column.assign(n, -1);
  for (int i = 0; i < n; ++i) {
    if (xl[i] < xu[i]) s->column[i] = s->n_z++;
  }
  s->slack.assign(m, -1);
  for (int r = 0; r < m; ++r) {
    if (gl[r] < gu[r]) s->slack[r] = s->n_z++;
  }
  std::vector<Index> a(std::max(nnz_j, nnz_h)), b(std::max(nnz_j, nnz_h));
  if (nnz_j > 0 && !tnlp.eval_jac_g(n, nullptr, true, m, nnz_j, a.data(), b.data(), nullptr)) {
    return *why = "eval_jac_g (structure) failed", false;
  }
  s->rows.assign(m, {});
  for (int k = 0; k < nnz_j; ++k) {
    const int r = a[k] - base, c = b[k] - base;
    if (r < 0 || r >= m || c < 0 || c >= n) return *why = "Jacobian entry out of range", false;
    if (s->column[c] >= 0) s->rows[r].push_back(s->column[c]);
  }
  for (int r = 0; r < m; ++r) {
    if (s->slack[r] >= 0) s->rows[r].push_back(s->slack[r]);
  }
  if (nnz_h > 0 && !tnlp.eval_h(n, nullptr, true, 1.0, m, nullptr, true, nnz_h, a.data(), b.data(),
                                nullptr)) {
    return *why = "eval_h (structure) failed", false;
  }
  for (int k = 0; k < nnz_h; ++k) {
    const int i = a[k] - base, j = b[k] - base;
    if (i < 0 || i >= n || j < 0 || j >= n) return *why = "Hessian entry out of range", false;
    const int zi = s->column[i], zj = s->column[j];
    if (zi >= 0 && zj >= 0) s->w.emplace_back(std::max(zi, zj), std::min(zi, zj));
  }
  return true;
}

// Entries of J_z^T J_z's lower triangle before duplicates merge: sum over
// rows of k (k + 1) / 2 for k entries in the row.
double ProductBound(const Structure& s) {
  double bound = 0.0;
  for (const auto& row : s.rows) bound += 0.5 * row.size() * (row.size() + 1.0);
  return bound;
}

// Above this many entries H's pattern is not built (a dense row of n
// entries has n^2 / 2): its factor is reported as unaffordable instead.
constexpr double kMaxProductEntries = 2e8;

// W, J_z^T J_z (every pair of columns of a row) and the diagonal.
Pattern NormalPattern(const Structure& s) {
  Pattern p = s.w;
  for (const std::vector<int>& row : s.rows) {
    for (size_t x = 0; x < row.size(); ++x) {
      for (size_t y = 0; y <= x; ++y) p.emplace_back(std::max(row[x], row[y]), std::min(row[x], row[y]));
    }
  }
  for (int i = 0; i < s.n_z; ++i) p.emplace_back(i, i);
  return p;
}

// W and the diagonal, J_z below it (row r of J_z is row n_z + r of K).
Pattern AugmentedPattern(const Structure& s) {
  Pattern p = s.w;
  for (int i = 0; i < s.n_z + s.m; ++i) p.emplace_back(i, i);
  for (int r = 0; r < s.m; ++r) {
    for (const int c : s.rows[r]) p.emplace_back(s.n_z + r, c);
  }
  return p;
}

struct Cost {
  double nnz_l = 0.0, flops = 0.0;
  bool ok = false;
};

// CHOLMOD's analysis of the symmetric pattern (its lower triangle).
Cost Analyze(int size, Pattern p) {
  std::sort(p.begin(), p.end(), [](const auto& u, const auto& v) {
    return u.second != v.second ? u.second < v.second : u.first < v.first;
  });
  p.erase(std::unique(p.begin(), p.end()), p.end());
  cholmod_common common;
  cholmod_start(&common);
  common.print = 0;
  cholmod_sparse* a = cholmod_allocate_sparse(size, size, p.size(), 1, 1, -1, CHOLMOD_PATTERN, &common);
  Cost cost;
  if (a) {
    int* start = static_cast<int*>(a->p);
    int* row = static_cast<int*>(a->i);
    std::fill(start, start + size + 1, 0);
    for (size_t k = 0; k < p.size(); ++k) row[k] = p[k].first, ++start[p[k].second + 1];
    for (int j = 0; j < size; ++j) start[j + 1] += start[j];
    cholmod_factor* l = cholmod_analyze(a, &common);
    cost.ok = l && common.status == CHOLMOD_OK;
    cost.nnz_l = common.lnz, cost.flops = common.fl;
    if (l) cholmod_free_factor(&l, &common);
    cholmod_free_sparse(&a, &common);
  }
  cholmod_finish(&common);
  return cost;
}

Ipopt::SmartPtr<Ipopt::TNLP> Scalable(const std::string& name, int size) {
  if (name == "boundary2d" && size >= 1) return new BoundaryControl2dTnlp(size);
  if (name == "boundary3d" && size >= 1) return new BoundaryControl3dTnlp(size);
  if (name == "distributed2d" && size >= 1) return new DistributedControl2dTnlp(size);
  if (name == "neumann2d" && size >= 1) return new DistributedControlNeumann2dTnlp(size);
  if ((name == "lukvle4" || name == "lukvli4") && size >= 6) return new LuksanVlcek4Tnlp(size, name == "lukvli4");
  if (name == "sphere" && size >= 2 && size % 2 == 0) return new RosenbrockSphereTnlp(size, 1e-8);
  return nullptr;
}

int Usage() {
  std::fprintf(stderr, "usage: kkt_fill --nl model.nl | --acopf case.m | --scalable NAME N  [--header]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--header") return std::printf("%s\n", kHeader) < 0;
  if (argc < 3) return Usage();
  const std::string kind = argv[1], path = argv[2];
  Ipopt::SmartPtr<Ipopt::TNLP> tnlp;
  std::string name = path.substr(path.find_last_of('/') + 1), error;
  try {
    if (kind == "--scalable" && argc == 4) {
      tnlp = Scalable(path, std::atoi(argv[3]));
      name += std::string(" ") + argv[3];
    } else if (kind == "--acopf" && argc == 3) {
      tnlp = new acopf::AcopfTnlp(acopf::ReadMatpowerCase(path));
#ifdef QPM_KKT_FILL_AMPL
    } else if (kind == "--nl" && argc == 3) {
      tnlp = qpm::AmplTnlp::Read(path, &error);
#endif
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (!Ipopt::IsValid(tnlp)) {
    if (!error.empty()) std::fprintf(stderr, "kkt_fill: %s\n", error.c_str());
    return error.empty() ? Usage() : 1;
  }
  Structure s;
  if (!Read(*tnlp, &s, &error)) {
    std::fprintf(stderr, "kkt_fill: %s: %s\n", name.c_str(), error.c_str());
    return 1;
  }
  size_t nnz_jac = 0;
  for (const auto& row : s.rows) nnz_jac += row.size();
  const bool dense = ProductBound(s) > kMaxProductEntries;
  const Cost k = Analyze(s.n_z + s.m, AugmentedPattern(s));
  const Cost h = dense ? Cost{} : Analyze(s.n_z, NormalPattern(s));
  if (dense && k.ok) {  // J_z^T J_z alone has more entries than the bound
    std::printf("%s,%d,%d,%zu,%zu,>%.4g,-,%.4g,%.4g,-\n", name.c_str(), s.n_z, s.m, nnz_jac, s.w.size(),
                ProductBound(s), k.nnz_l, k.flops);
    return 0;
  }
  if (!h.ok || !k.ok) {
    std::fprintf(stderr, "kkt_fill: %s: CHOLMOD's analysis failed (out of memory?)\n", name.c_str());
    return 1;
  }
  std::printf("%s,%d,%d,%zu,%zu,%.4g,%.4g,%.4g,%.4g,%.3f\n", name.c_str(), s.n_z, s.m, nnz_jac, s.w.size(),
              h.nnz_l, h.flops, k.nnz_l, k.flops, h.flops / k.flops);
  return 0;
}
