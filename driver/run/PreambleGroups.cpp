//===--- PreambleGroups.cpp - units that share a preamble -----------------===//

#include "driver/run/PreambleGroups.h"

#include "driver/engine/PreambleKey.h"

namespace torch_tidy {

std::map<std::string, std::string>
preambleGroups(RunSetup &S, const std::vector<std::string> &Units) {
  std::map<std::string, std::string> GroupOf;
  std::map<std::string, unsigned> Size;
  for (const std::string &U : Units) {
    std::vector<clang::tooling::CompileCommand> Commands =
        S.Compilations->getCompileCommands(U);
    if (Commands.size() != 1)
      continue;
    clang::tidy::ClangTidyOptions O = S.Context->getOptionsForFile(U);
    std::vector<std::string> None;
    std::string Group = preambleGroupHint(
        Commands.front(), O.ExtraArgsBefore ? *O.ExtraArgsBefore : None,
        O.ExtraArgs ? *O.ExtraArgs : None);
    if (Group.empty())
      continue;
    GroupOf[U] = Group;
    ++Size[Group];
  }
  for (auto It = GroupOf.begin(); It != GroupOf.end();)
    It = Size[It->second] < 2 ? GroupOf.erase(It) : std::next(It);
  return GroupOf;
}

} // namespace torch_tidy
