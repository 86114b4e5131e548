// Binary .nl files for the tests, written by the ASL's own fg_write from a
// text model (a separate file: the ASL headers define many short macros).
#include "nl_binary.hpp"

#include <vector>

#include <asl.h>

namespace qpm_test {

bool WriteBinaryNl(const std::string& text_nl, const std::string& binary_stub) {
  ASL* asl = ASL_alloc(ASL_read_fg);
  return_nofile = 1;
  std::vector<char> in(text_nl.begin(), text_nl.end());
  in.push_back('\0');
  FILE* nl = jac0dim(in.data(), 0);
  bool ok = nl != nullptr && fg_wread(nl, ASL_return_read_err | ASL_keep_all_suffixes) == 0;
  if (ok) ok = fg_write(binary_stub.c_str(), nullptr, ASL_write_binary) == 0;
  ASL_free(&asl);
  return ok;
}

}  // namespace qpm_test
