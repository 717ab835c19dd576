// Writes the conformance checks each known implementation may skip, one file per implementation
// (<folder>/<implementation>.txt: one "suite/name" per line, each fact's reason as a comment
// above its checks), from the table of known drivers (known_drivers.def). test_conform.cpp and
// check_conform_cli.py read them: a skip the table does not name fails those tests. The lists
// hold the facts of every driver version (the tests' drivers are the versions the table was
// written on).
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "xgpu/common/drivers/known_drivers.hpp"

using namespace xgpu::drivers;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " FOLDER\n";
    return 2;
  }
  for (const std::string& implementation : known_implementations()) {
    const std::string path = std::string(argv[1]) + "/" + implementation + ".txt";
    std::ofstream out(path);
    out << "# The conformance checks that may skip on " << implementation
        << ", made from backends/common/xgpu/common/drivers/known_drivers.def at build time:\n"
        << "# edit that table, not this file.\n";
    std::set<std::string> written;
    for (const DriverFact& fact : known_driver_facts()) {
      if (fact.implementation != implementation ||
          (fact.affects != Affects::wrong_result && fact.affects != Affects::missing_feature))
        continue;
      out << "\n# " << (fact.affects == Affects::wrong_result ? "wrong result" : "missing") << ": "
          << fact.why << "\n";
      for (const std::string& check : checks_of(fact))
        if (written.insert(check).second) out << check << "\n";
    }
    if (!out) {
      std::cerr << argv[0] << ": cannot write " << path << "\n";
      return 1;
    }
  }
  return 0;
}
