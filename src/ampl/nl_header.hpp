// The ten text lines that open every AMPL .nl file, read and checked before
// the AMPL Solver Library sees the file.
//
// Why: the ASL's jac0dim ends the process (exit(1)) on a header it cannot
// parse, and pfgh_read then allocates by the header's counts (2 * 8 bytes
// per variable and per constraint for the bounds, an expr_v per variable,
// ...) without asking whether the file could hold that many. A 12 kB file
// whose header claims 4e12 variables makes it allocate tens of gigabytes.
// ReadNlHeader parses the header as jac0dim does (same integers per line,
// same 79-character lines) and refuses, with one line of text:
//   - a header jac0dim would exit on (too few integers, no variables,
//     unknown arithmetic kind, a missing line);
//   - negative counts, and subset counts larger than their set (nonlinear
//     constraints > constraints, ...);
//   - counts the rest of the file cannot hold: each item takes a least
//     number of bytes in the body (NlItemBytes), so
//         sum_i count_i * bytes_i <= body bytes.
//     The least sizes are what the format itself needs, below what any
//     writer can emit, so no valid file is refused and the ASL's allocations
//     stay a fixed multiple of the file size (docs/interop.md, "The `qpm`
//     executable").
#ifndef QPM_SRC_AMPL_NL_HEADER_HPP_
#define QPM_SRC_AMPL_NL_HEADER_HPP_

#include <string>

namespace qpm {
namespace ampl_internal {

// Fewest body bytes one item of each kind takes in a valid .nl file.
struct NlItemBytes {
  long long bound;    // a variable's (b segment) or a constraint's (r segment) bound
  long long nonzero;  // a Jacobian (J) or objective gradient (G) entry: index and value
  long long segment;  // a C, O, L, F or V segment: its letter and number, then a body
};
// Text: "3\n" (no bound), "0 0\n" (index, value), "C0\n" (the expression follows).
constexpr NlItemBytes kTextItemBytes{2, 4, 3};
// Binary: a bound-type byte; a 4-byte int and an 8-byte double; a letter and an int.
constexpr NlItemBytes kBinaryItemBytes{1, 12, 5};

struct NlHeader {
  bool binary = false;       // 'b' (binary body) rather than 'g' (text)
  long long n_var = 0;       // line 2: variables
  long long n_con = 0;       //         constraints
  long long n_obj = 0;       //         objectives
  long long n_ranges = 0;    //         range constraints
  long long n_eqn = 0;       //         equality constraints
  long long n_lcon = 0;      //         logical constraints
  long long nlc = 0;         // line 3: nonlinear constraints
  long long nlo = 0;         //         nonlinear objectives
  long long n_cc = 0;        //         complementarity conditions: linear
  long long nlcc = 0;        //         complementarity conditions: nonlinear
  long long nlnc = 0;        // line 4: nonlinear network constraints
  long long lnc = 0;         //         linear network constraints
  long long nlvc = 0;        // line 5: nonlinear variables in constraints
  long long nlvo = 0;        //         nonlinear variables in objectives
  long long nlvb = 0;        //         nonlinear variables in both
  long long nwv = 0;         // line 6: linear network variables
  long long nfunc = 0;       //         imported functions
  long long arith = 0;       //         arithmetic kind of a binary body (0: unstated)
  long long nbv = 0;         // line 7: binary variables
  long long niv = 0;         //         integer variables
  long long nlvi = 0;        //         nonlinear integer variables (both, c, o)
  long long nzc = 0;         // line 8: Jacobian nonzeros
  long long nzo = 0;         //         objective gradient nonzeros
  long long n_common = 0;    // line 10: common expressions (b, c, o, c1, o1)
  long long header_bytes = 0;  // where the body starts
  long long file_bytes = 0;
};

// Reads and checks the header of `file`. False with `error` set to one line
// ("<file>: <what>, <limit>") when the ASL must not be given the file.
bool ReadNlHeader(const std::string& file, NlHeader* header, std::string* error);

}  // namespace ampl_internal
}  // namespace qpm

#endif  // QPM_SRC_AMPL_NL_HEADER_HPP_
