//===--- PreambleLocations.cpp - findings of a unit that read a shared PCH ===//

#include "driver/engine/PreambleLocations.h"

using namespace clang;

namespace torch_tidy {
namespace {

class LocationMapper {
public:
  LocationMapper(const Preamble &P, llvm::StringRef UnitMain)
      : P(P), UnitMain(UnitMain) {}

  void message(tooling::DiagnosticMessage &M) {
    if (M.FilePath == P.MainPath) {
      M.FilePath = UnitMain.str();
      M.FileOffset = offset(M.FileOffset);
    }
    for (tooling::FileByteRange &R : M.Ranges)
      if (R.FilePath == P.MainPath) {
        unsigned Begin = offset(R.FileOffset);
        unsigned End = offset(R.FileOffset + R.Length);
        R.FilePath = UnitMain.str();
        R.FileOffset = Begin;
        R.Length = End >= Begin ? End - Begin : 0;
      }
    fixes(M.Fix);
  }

private:
  unsigned offset(unsigned Offset) const {
    return mapOffset(P.Built, P.Unit, Offset);
  }

  void fixes(llvm::StringMap<tooling::Replacements> &Fix) {
    auto It = Fix.find(P.MainPath);
    if (It == Fix.end())
      return;
    tooling::Replacements Moved = std::move(It->second);
    Fix.erase(It);
    tooling::Replacements &Mine = Fix[UnitMain];
    for (const tooling::Replacement &R : Moved) {
      unsigned Begin = offset(R.getOffset());
      unsigned End = offset(R.getOffset() + R.getLength());
      tooling::Replacement Put(UnitMain, Begin, End >= Begin ? End - Begin : 0,
                               R.getReplacementText());
      // A fix that collides with another was as impossible in a whole parse.
      llvm::consumeError(Mine.add(Put));
    }
  }

  const Preamble &P;
  llvm::StringRef UnitMain;
};

} // namespace

void mapPreambleLocations(std::vector<tidy::ClangTidyError> &Errors,
                          const Preamble &P, llvm::StringRef UnitMain) {
  if (!P.isShared() || P.MainPath == UnitMain)
    return;
  LocationMapper Map(P, UnitMain);
  for (tidy::ClangTidyError &E : Errors) {
    Map.message(E.Message);
    for (tooling::DiagnosticMessage &N : E.Notes)
      Map.message(N);
  }
}

} // namespace torch_tidy
