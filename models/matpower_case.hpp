// A reader for MATPOWER version-2 case files (the format of the PGLib-OPF
// benchmark cases, https://github.com/power-grid-lib/pglib-opf).
//
// Reads `mpc.baseMVA` and the matrices `mpc.bus`, `mpc.gen`, `mpc.branch` and
// `mpc.gencost` (`mpc.x = [ ... ];`, rows ending with `;` or a newline, numbers
// separated by blanks or commas, `%` comments anywhere, `...` continuing a row).
// Every other statement (`mpc.areas`, cell arrays such as `mpc.bus_name = {...};`,
// `function mpc = ...`) is skipped. Keeps the in-service generators (status > 0)
// and branches (status > 0), and drops isolated buses (type 4) with the
// elements attached to them. Values stay in the file's units (MW, MVAr,
// degrees); AcopfTnlp converts them to per unit.
//
// Malformed input throws std::runtime_error "FILE:LINE: what is wrong" (LINE
// is left out when the problem is not on one line); memory stays within the
// caps of MatpowerLimits.
#ifndef QPM_MODELS_MATPOWER_CASE_HPP_
#define QPM_MODELS_MATPOWER_CASE_HPP_

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace acopf {

struct MatpowerBus {
  int id = 0;            // BUS_I, the file's bus number
  int type = 1;          // 1 PQ, 2 PV, 3 reference (isolated buses, 4, are dropped)
  double pd = 0, qd = 0; // load, MW and MVAr
  double gs = 0, bs = 0; // shunt conductance and susceptance, MW and MVAr at 1 p.u.
  double vmin = 0, vmax = 0;  // voltage magnitude limits, p.u.
};

struct MatpowerGen {
  int bus = 0;                 // index into MatpowerCase::buses
  int line = 0;                // line of its row in the file
  double pmin = 0, pmax = 0;   // MW
  double qmin = 0, qmax = 0;   // MVAr
  double c2 = 0, c1 = 0, c0 = 0;  // cost c2 P^2 + c1 P + c0 in $/h, P in MW
};

struct MatpowerBranch {
  int from = 0, to = 0;        // indices into MatpowerCase::buses
  int line = 0;                // line of its row in the file
  double r = 0, x = 0, b = 0;  // series resistance and reactance, total line charging, p.u.
  double rate_a = 0;           // MVA; 0: no thermal limit
  double tap = 0;              // off-nominal turns ratio; 0 means 1
  double shift = 0;            // phase shift, degrees
  double angmin = 0, angmax = 0;  // limits on va_from - va_to, degrees
};

struct MatpowerCase {
  std::string name;      // the file name without folder and ".m"
  double base_mva = 0;   // MVA of 1 p.u.
  std::vector<MatpowerBus> buses;        // in the order of the file, isolated ones left out
  std::vector<MatpowerGen> gens;         // in-service, at kept buses
  std::vector<MatpowerBranch> branches;  // in-service, between kept buses
};

struct MatpowerLimits {
  std::size_t max_rows = 10'000'000;       // rows of one matrix
  std::size_t max_columns = 1'000;         // entries of one row
  std::size_t max_line_length = 1 << 20;   // characters of one line
};

// Reads the case file at `path`.
MatpowerCase ReadMatpowerCase(const std::string& path, const MatpowerLimits& limits = {});

// Reads a case from `in`; `source` names it in messages and gives `name`.
MatpowerCase ParseMatpowerCase(std::istream& in, const std::string& source,
                               const MatpowerLimits& limits = {});

}  // namespace acopf

#endif  // QPM_MODELS_MATPOWER_CASE_HPP_
