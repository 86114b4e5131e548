// Derivatives of one Ohm's-law row. With end 1 the end the flow leaves from,
// phi = va1 - va2, K = c cos(phi) + s sin(phi), L = dK/dphi = s cos(phi) - c sin(phi):
//
//   h          = a v1^2 + v1 v2 K
//   dh/dva1    = v1 v2 L          dh/dva2 = -v1 v2 L
//   dh/dvm1    = 2 a v1 + v2 K    dh/dvm2 = v1 K
//   d2h/dva1^2 = d2h/dva2^2 = -v1 v2 K,   d2h/dva1 dva2 = v1 v2 K
//   d2h/dvm1^2 = 2 a,  d2h/dvm2^2 = 0,    d2h/dvm1 dvm2 = K
//   d2h/dvm1 dva1 = v2 L,  d2h/dvm1 dva2 = -v2 L
//   d2h/dvm2 dva1 = v1 L,  d2h/dvm2 dva2 = -v1 L
//
// The row is flow - h = 0, so its Jacobian is 1 on the flow and -grad h on
// the voltages, and its Hessian is -hess h.
#include "acopf_tnlp.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace acopf {
namespace {

constexpr double kInf = 2e19;  // beyond Ipopt's nlp_{lower,upper}_bound_inf (1e19)
constexpr double kPi = 3.14159265358979323846;
// PowerModels' correct_voltage_angle_differences!: limits at or beyond
// -+90 deg (or both 0) become -+default_pad = -+1.0472 rad (60 deg).
constexpr double kAngleLimitBreak = kPi / 2;
constexpr double kAngleLimitPad = 1.0472;

double Radians(double degrees) { return degrees * kPi / 180.0; }
double Bound(double v) { return std::max(-kInf, std::min(kInf, v)); }

// Position of (i, j), i >= j, in the row-by-row lower triangle of a 4 x 4.
int Tri(int i, int j) { return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i; }

}  // namespace

AcopfTnlp::AcopfTnlp(const MatpowerCase& c)
    : nb_(static_cast<int>(c.buses.size())),
      ng_(static_cast<int>(c.gens.size())),
      nl_(static_cast<int>(c.branches.size())),
      base_mva_(c.base_mva) {
  ReadBuses(c);
  ReadGens(c);
  ReadBranches(c);
  BuildAnglePairs(c);
  n_ = 2 * nb_ + 2 * ng_ + 4 * nl_;
  row_ohm_ = 2 * nb_;
  row_angle_ = row_ohm_ + 4 * nl_;
  row_thermal_ = row_angle_ + static_cast<int>(angle_pairs_.size());
  m_ = row_thermal_ + 2 * static_cast<int>(rated_.size());
  BuildJacobianStructure();
  BuildHessianStructure();
}

void AcopfTnlp::ReadBuses(const MatpowerCase& c) {
  for (const MatpowerBus& b : c.buses) {
    buses_.push_back({b.pd / base_mva_, b.qd / base_mva_, b.gs / base_mva_, b.bs / base_mva_,
                      b.vmin, b.vmax, b.type == 3});
  }
}

void AcopfTnlp::ReadGens(const MatpowerCase& c) {
  const double s = base_mva_;
  gen_start_.assign(nb_ + 1, 0);
  for (const MatpowerGen& g : c.gens) {
    gens_.push_back({g.bus, g.pmin / s, g.pmax / s, g.qmin / s, g.qmax / s, g.c2 * s * s, g.c1 * s,
                     g.c0, g.c2, g.c1});
    ++gen_start_[g.bus + 1];
  }
  for (int i = 0; i < nb_; ++i) gen_start_[i + 1] += gen_start_[i];
  bus_gens_.resize(ng_);
  std::vector<int> next(gen_start_.begin(), gen_start_.end() - 1);
  for (int k = 0; k < ng_; ++k) bus_gens_[next[gens_[k].bus]++] = k;
}

// The coefficients of the four Ohm's-law rows (PowerModels' constraint_ohms_yt_from/_to):
// y = 1/(r + j x) = g + j b, g_fr = g_to = 0, b_fr = b_to = b_line/2,
// tr + j ti = tm e^{j ta}, ttm = tm^2.
void AcopfTnlp::ReadBranches(const MatpowerCase& c) {
  arc_start_.assign(nb_ + 1, 0);
  for (const MatpowerBranch& m : c.branches) {
    const double z2 = m.r * m.r + m.x * m.x;
    const double g = z2 > 0 ? m.r / z2 : 0.0, b = z2 > 0 ? -m.x / z2 : 0.0;
    const double b_sh = m.b / 2;  // b_fr = b_to; g_fr = g_to = 0
    const double tm = m.tap > 0 ? m.tap : 1.0, ta = Radians(m.shift);
    const double tr = tm * std::cos(ta), ti = tm * std::sin(ta), ttm = tm * tm;
    Branch br;
    br.f = m.from, br.t = m.to;
    br.rows[kPFrom] = {g / ttm, (-g * tr + b * ti) / ttm, (-b * tr - g * ti) / ttm};
    br.rows[kQFrom] = {-(b + b_sh) / ttm, -(-b * tr - g * ti) / ttm, (-g * tr + b * ti) / ttm};
    br.rows[kPTo] = {g, (-g * tr - b * ti) / ttm, (-b * tr + g * ti) / ttm};
    br.rows[kQTo] = {-(b + b_sh), -(-b * tr + g * ti) / ttm, (-g * tr - b * ti) / ttm};
    br.rate = m.rate_a / base_mva_;
    if (br.rate > 0) rated_.push_back(static_cast<int>(branches_.size()));
    branches_.push_back(br);
    ++arc_start_[m.from + 1], ++arc_start_[m.to + 1];
  }
  for (int i = 0; i < nb_; ++i) arc_start_[i + 1] += arc_start_[i];
  arcs_.resize(2 * nl_);
  std::vector<int> next(arc_start_.begin(), arc_start_.end() - 1);
  for (int l = 0; l < nl_; ++l) {
    arcs_[next[branches_[l].f]++] = {l, kPFrom};
    arcs_[next[branches_[l].t]++] = {l, kPTo};
  }
}

// One angle-difference row per pair of connected buses, in the orientation of
// its first branch, with the tightest limits of its branches (PowerModels'
// buspairs, after correct_branch_directions!).
void AcopfTnlp::BuildAnglePairs(const MatpowerCase& c) {
  std::map<std::pair<int, int>, int> pair_of;
  for (const MatpowerBranch& m : c.branches) {
    double lo = Radians(m.angmin), hi = Radians(m.angmax);
    if (lo <= -kAngleLimitBreak) lo = -kAngleLimitPad;
    if (hi >= kAngleLimitBreak) hi = kAngleLimitPad;
    if (lo == 0.0 && hi == 0.0) lo = -kAngleLimitPad, hi = kAngleLimitPad;
    const auto key = std::minmax(m.from, m.to);
    const auto found = pair_of.emplace(key, static_cast<int>(angle_pairs_.size()));
    if (found.second) {
      angle_pairs_.push_back({m.from, m.to, lo, hi});
      continue;
    }
    AnglePair& p = angle_pairs_[found.first->second];
    const bool reversed = p.f != m.from;
    p.lo = std::max(p.lo, reversed ? -hi : lo);
    p.hi = std::min(p.hi, reversed ? -lo : hi);
  }
}

std::array<int, 4> AcopfTnlp::LocalOrder(int end) {
  if (end == kPFrom || end == kQFrom) return {0, 1, 2, 3};
  return {1, 0, 3, 2};
}

std::array<int, 4> AcopfTnlp::BranchVoltageVariables(const Branch& br) const {
  return {va(br.f), va(br.t), vm(br.f), vm(br.t)};
}

AcopfTnlp::OhmDerivatives AcopfTnlp::Ohm(const Branch& br, int end, const Number* x,
                                         bool second) const {
  const OhmRow& r = br.rows[end];
  const std::array<int, 4> var = BranchVoltageVariables(br);
  const std::array<int, 4> o = LocalOrder(end);  // local numbers of va1, va2, vm1, vm2
  const double va1 = x[var[o[0]]], va2 = x[var[o[1]]], v1 = x[var[o[2]]], v2 = x[var[o[3]]];
  const double cs = std::cos(va1 - va2), sn = std::sin(va1 - va2);
  const double k = r.c * cs + r.s * sn, l = r.s * cs - r.c * sn, vv = v1 * v2;
  OhmDerivatives d{};
  d.h = r.a * v1 * v1 + vv * k;
  d.grad[o[0]] = vv * l;
  d.grad[o[1]] = -vv * l;
  d.grad[o[2]] = 2 * r.a * v1 + v2 * k;
  d.grad[o[3]] = v1 * k;
  if (!second) return d;
  auto add = [&](int i, int j, double v) { d.hess[Tri(o[i], o[j])] += v; };
  add(0, 0, -vv * k), add(1, 1, -vv * k), add(1, 0, vv * k);
  add(2, 2, 2 * r.a), add(3, 2, k);
  add(2, 0, v2 * l), add(2, 1, -v2 * l), add(3, 0, v1 * l), add(3, 1, -v1 * l);
  return d;
}

// Calls emit(row, col, value) for each Jacobian entry, always in the same
// order: the structure is this walk at any x, the values at the given x.
template <class Emit>
void AcopfTnlp::WalkJacobian(const Number* x, Emit&& emit) const {
  for (int q = 0; q < 2; ++q) {  // active (q = 0) and reactive (q = 1) balance
    for (int i = 0; i < nb_; ++i) {
      const int row = q * nb_ + i;
      for (int a = arc_start_[i]; a < arc_start_[i + 1]; ++a) {
        emit(row, flow(arcs_[a].branch, arcs_[a].end + q), 1.0);
      }
      for (int j = gen_start_[i]; j < gen_start_[i + 1]; ++j) {
        emit(row, q == 0 ? pg(bus_gens_[j]) : qg(bus_gens_[j]), -1.0);
      }
      const double shunt = q == 0 ? buses_[i].gs : -buses_[i].bs;
      emit(row, vm(i), 2 * shunt * x[vm(i)]);
    }
  }
  for (int l = 0; l < nl_; ++l) {
    const std::array<int, 4> var = BranchVoltageVariables(branches_[l]);
    for (int end = 0; end < 4; ++end) {
      const int row = row_ohm_ + 4 * l + end;
      const OhmDerivatives d = Ohm(branches_[l], end, x, false);
      emit(row, flow(l, end), 1.0);
      for (int j = 0; j < 4; ++j) emit(row, var[j], -d.grad[j]);
    }
  }
  for (int p = 0; p < static_cast<int>(angle_pairs_.size()); ++p) {
    emit(row_angle_ + p, va(angle_pairs_[p].f), 1.0);
    emit(row_angle_ + p, va(angle_pairs_[p].t), -1.0);
  }
  for (int j = 0; j < static_cast<int>(rated_.size()); ++j) {
    for (int end = 0; end < 4; ++end) {
      const int col = flow(rated_[j], end);
      emit(row_thermal_ + 2 * j + end / 2, col, 2 * x[col]);
    }
  }
}

void AcopfTnlp::BuildJacobianStructure() {
  std::vector<Number> x0(n_, 1.0);
  WalkJacobian(x0.data(), [this](int row, int col, double) {
    jac_rows_.push_back(row);
    jac_cols_.push_back(col);
  });
}

void AcopfTnlp::BuildHessianStructure() {
  std::map<std::pair<int, int>, int> slot_of;
  auto slot = [&](int i, int j) {
    const auto key = std::make_pair(std::max(i, j), std::min(i, j));
    const auto found = slot_of.emplace(key, static_cast<int>(hess_rows_.size()));
    if (found.second) hess_rows_.push_back(key.first), hess_cols_.push_back(key.second);
    return found.first->second;
  };
  for (int k = 0; k < ng_; ++k) hess_pg_.push_back(gens_[k].c2 != 0 ? slot(pg(k), pg(k)) : -1);
  for (int i = 0; i < nb_; ++i) hess_vm_.push_back(slot(vm(i), vm(i)));
  for (const Branch& br : branches_) {
    const std::array<int, 4> var = BranchVoltageVariables(br);
    std::array<int, 10> slots{};
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j <= i; ++j) slots[Tri(i, j)] = slot(var[i], var[j]);
    }
    hess_branch_.push_back(slots);
  }
  for (const int l : rated_) {
    std::array<int, 4> slots{};
    for (int end = 0; end < 4; ++end) slots[end] = slot(flow(l, end), flow(l, end));
    hess_flow_.push_back(slots);
  }
}

bool AcopfTnlp::get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                             IndexStyleEnum& index_style) {
  n = n_, m = m_;
  nnz_jac_g = static_cast<Index>(jac_rows_.size());
  nnz_h_lag = static_cast<Index>(hess_rows_.size());
  index_style = C_STYLE;
  return true;
}

bool AcopfTnlp::get_bounds_info(Index, Number* x_l, Number* x_u, Index, Number* g_l, Number* g_u) {
  for (int i = 0; i < nb_; ++i) {
    x_l[va(i)] = buses_[i].reference ? 0.0 : -kInf;
    x_u[va(i)] = buses_[i].reference ? 0.0 : kInf;
    x_l[vm(i)] = Bound(buses_[i].vmin), x_u[vm(i)] = Bound(buses_[i].vmax);
    g_l[i] = g_u[i] = -buses_[i].pd;
    g_l[nb_ + i] = g_u[nb_ + i] = -buses_[i].qd;
  }
  for (int k = 0; k < ng_; ++k) {
    x_l[pg(k)] = Bound(gens_[k].pmin), x_u[pg(k)] = Bound(gens_[k].pmax);
    x_l[qg(k)] = Bound(gens_[k].qmin), x_u[qg(k)] = Bound(gens_[k].qmax);
  }
  for (int l = 0; l < nl_; ++l) {
    const double rate = branches_[l].rate > 0 ? branches_[l].rate : kInf;
    for (int end = 0; end < 4; ++end) x_l[flow(l, end)] = -rate, x_u[flow(l, end)] = rate;
    for (int row = row_ohm_ + 4 * l; row < row_ohm_ + 4 * l + 4; ++row) g_l[row] = g_u[row] = 0.0;
  }
  for (int p = 0; p < static_cast<int>(angle_pairs_.size()); ++p) {
    g_l[row_angle_ + p] = angle_pairs_[p].lo, g_u[row_angle_ + p] = angle_pairs_[p].hi;
  }
  for (int j = 0; j < static_cast<int>(rated_.size()); ++j) {
    const double rate = branches_[rated_[j]].rate;
    for (int end = 0; end < 2; ++end) {
      g_l[row_thermal_ + 2 * j + end] = -kInf, g_u[row_thermal_ + 2 * j + end] = rate * rate;
    }
  }
  return true;
}

// PowerModels' flat start (comp_start_value defaults when the data have no
// *_start values, as in the PGLib files): vm = 1, everything else 0. Not the
// midpoint of the bounds: PowerModels does not use it, and this keeps both
// solvers on the point the reference objectives were computed from. Each
// solver moves it into the bounds its own way (Ipopt's bound_push).
bool AcopfTnlp::get_starting_point(Index n, bool init_x, Number* x, bool init_z, Number* z_L,
                                   Number* z_U, Index m, bool init_lambda, Number* lambda) {
  if (init_x) {
    std::fill(x, x + n, 0.0);
    for (int i = 0; i < nb_; ++i) x[vm(i)] = 1.0;
  }
  if (init_z) std::fill(z_L, z_L + n, 0.0), std::fill(z_U, z_U + n, 0.0);
  if (init_lambda) std::fill(lambda, lambda + m, 0.0);
  return true;
}

bool AcopfTnlp::eval_f(Index, const Number* x, bool, Number& obj_value) {
  obj_value = 0.0;
  for (int k = 0; k < ng_; ++k) {
    const double p = x[pg(k)];
    obj_value += (gens_[k].c2 * p + gens_[k].c1) * p + gens_[k].c0;
  }
  return true;
}

bool AcopfTnlp::eval_grad_f(Index n, const Number* x, bool, Number* grad_f) {
  std::fill(grad_f, grad_f + n, 0.0);
  for (int k = 0; k < ng_; ++k) grad_f[pg(k)] = 2 * gens_[k].c2 * x[pg(k)] + gens_[k].c1;
  return true;
}

bool AcopfTnlp::eval_g(Index, const Number* x, bool, Index, Number* g) {
  for (int i = 0; i < nb_; ++i) {
    double p = buses_[i].gs * x[vm(i)] * x[vm(i)], q = -buses_[i].bs * x[vm(i)] * x[vm(i)];
    for (int a = arc_start_[i]; a < arc_start_[i + 1]; ++a) {
      p += x[flow(arcs_[a].branch, arcs_[a].end)];
      q += x[flow(arcs_[a].branch, arcs_[a].end + 1)];
    }
    for (int j = gen_start_[i]; j < gen_start_[i + 1]; ++j) {
      p -= x[pg(bus_gens_[j])], q -= x[qg(bus_gens_[j])];
    }
    g[i] = p, g[nb_ + i] = q;
  }
  for (int l = 0; l < nl_; ++l) {
    for (int end = 0; end < 4; ++end) {
      g[row_ohm_ + 4 * l + end] = x[flow(l, end)] - Ohm(branches_[l], end, x, false).h;
    }
  }
  for (int p = 0; p < static_cast<int>(angle_pairs_.size()); ++p) {
    g[row_angle_ + p] = x[va(angle_pairs_[p].f)] - x[va(angle_pairs_[p].t)];
  }
  for (int j = 0; j < static_cast<int>(rated_.size()); ++j) {
    for (int end = 0; end < 4; end += 2) {
      const double p = x[flow(rated_[j], end)], q = x[flow(rated_[j], end + 1)];
      g[row_thermal_ + 2 * j + end / 2] = p * p + q * q;
    }
  }
  return true;
}

bool AcopfTnlp::eval_jac_g(Index, const Number* x, bool, Index, Index nele_jac, Index* iRow,
                           Index* jCol, Number* values) {
  if (values == nullptr) {
    std::copy(jac_rows_.begin(), jac_rows_.end(), iRow);
    std::copy(jac_cols_.begin(), jac_cols_.end(), jCol);
    return true;
  }
  Index k = 0;
  WalkJacobian(x, [&](int, int, double v) { values[k++] = v; });
  return k == nele_jac;
}

bool AcopfTnlp::eval_h(Index, const Number* x, bool, Number obj_factor, Index, const Number* lambda,
                       bool, Index nele_hess, Index* iRow, Index* jCol, Number* values) {
  if (values == nullptr) {
    std::copy(hess_rows_.begin(), hess_rows_.end(), iRow);
    std::copy(hess_cols_.begin(), hess_cols_.end(), jCol);
    return true;
  }
  std::fill(values, values + nele_hess, 0.0);
  for (int k = 0; k < ng_; ++k) {
    if (hess_pg_[k] >= 0) values[hess_pg_[k]] += obj_factor * 2 * gens_[k].c2;
  }
  for (int i = 0; i < nb_; ++i) {
    values[hess_vm_[i]] += 2 * (lambda[i] * buses_[i].gs - lambda[nb_ + i] * buses_[i].bs);
  }
  for (int l = 0; l < nl_; ++l) {
    for (int end = 0; end < 4; ++end) {
      const double mult = lambda[row_ohm_ + 4 * l + end];
      const OhmDerivatives d = Ohm(branches_[l], end, x, true);
      for (int e = 0; e < 10; ++e) values[hess_branch_[l][e]] -= mult * d.hess[e];
    }
  }
  for (int j = 0; j < static_cast<int>(rated_.size()); ++j) {
    for (int end = 0; end < 4; ++end) {
      values[hess_flow_[j][end]] += 2 * lambda[row_thermal_ + 2 * j + end / 2];
    }
  }
  return true;
}

void AcopfTnlp::finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x,
                                  const Number*, const Number*, Index m, const Number*,
                                  const Number* lambda, Number obj_value, const Ipopt::IpoptData*,
                                  Ipopt::IpoptCalculatedQuantities*) {
  finalized_ = true;
  status_ = status;
  objective_ = obj_value;
  x_.assign(x, x + n);
  lambda_.assign(lambda, lambda + m);
}

double AcopfTnlp::GenerationCost(const double* x) const {
  double cost = 0.0;
  for (int k = 0; k < ng_; ++k) {
    const double p_mw = base_mva_ * x[pg(k)];
    cost += (gens_[k].c2_mw * p_mw + gens_[k].c1_mw) * p_mw + gens_[k].c0;
  }
  return cost;
}

}  // namespace acopf
