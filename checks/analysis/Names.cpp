//===--- Names.cpp - Guesses from the names in users' code ----------------===//

#include "checks/analysis/Names.h"

#include "llvm/ADT/STLExtras.h"

#include <cctype>

using namespace clang;

namespace torch_tidy::analysis {

llvm::SmallVector<std::string, 4> nameWords(llvm::StringRef Name) {
  llvm::SmallVector<std::string, 4> Words;
  std::string Word;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    bool Upper = C >= 'A' && C <= 'Z';
    if (C == '_' || (Upper && !Word.empty() &&
                     !(Name[I - 1] >= 'A' && Name[I - 1] <= 'Z'))) {
      if (!Word.empty())
        Words.push_back(Word);
      Word.clear();
      if (C == '_')
        continue;
    }
    Word.push_back(static_cast<char>(Upper ? C - 'A' + 'a' : C));
  }
  if (!Word.empty())
    Words.push_back(Word);
  return Words;
}

WordList::WordList(llvm::StringRef Spelling) : Spelling(Spelling.str()) {
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Spelling.split(Parts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    llvm::SmallVector<llvm::StringRef, 4> Words;
    Part.trim().split(Words, '+', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    std::vector<std::string> Entry;
    for (llvm::StringRef W : Words)
      if (!W.trim().empty())
        Entry.push_back(W.trim().str());
    if (!Entry.empty())
      Entries.push_back(std::move(Entry));
  }
}

bool WordList::matches(llvm::ArrayRef<std::string> Words) const {
  auto Has = [&](llvm::StringRef Part) {
    return llvm::any_of(Words, [&](llvm::StringRef W) {
      return W.equals_insensitive(Part) ||
             (W.size() == Part.size() + 1 && W.back() == 's' &&
              W.drop_back().equals_insensitive(Part));
    });
  };
  return llvm::any_of(Entries, [&](const std::vector<std::string> &Entry) {
    return llvm::all_of(Entry, [&](const std::string &Part) { return Has(Part); });
  });
}

bool WordList::contains(llvm::StringRef Word) const {
  return llvm::any_of(Entries, [&](const std::vector<std::string> &Entry) {
    return Entry.size() == 1 && Entry.front() == Word;
  });
}

bool WordList::containedIn(llvm::StringRef Text) const {
  std::string Lower = Text.lower();
  return llvm::any_of(Entries, [&](const std::vector<std::string> &Entry) {
    return Entry.size() == 1 &&
           llvm::StringRef(Lower).contains(llvm::StringRef(Entry.front()).lower());
  });
}

bool WordList::begins(llvm::StringRef Text) const {
  std::string Lower = Text.lower();
  return llvm::any_of(Entries, [&](const std::vector<std::string> &Entry) {
    return Entry.size() == 1 &&
           llvm::StringRef(Lower).starts_with(llvm::StringRef(Entry.front()).lower());
  });
}

NameGuesses::NameGuesses() {
  std::string Unused;
  *this = NameGuesses(
      [](const NameGuessOption &Option) { return std::string(Option.Default); },
      Unused);
}

NameGuesses::NameGuesses(
    llvm::function_ref<std::string(const NameGuessOption &)> Value,
    std::string &Error) {
  for (const NameGuessOption *Option : guess::All)
    Spellings.push_back(Value(*Option));
  Metric = WordList(spelling(guess::MetricWords));
  Loss = WordList(spelling(guess::LossWords));
  EvalExcept = WordList(spelling(guess::EvalFunctionsExceptWords));
  Test = WordList(spelling(guess::TestFunctionWords));
  Pool = WordList(spelling(guess::ThreadPoolWords));
  PoolMethods = WordList(spelling(guess::ThreadPoolMethods));
  Draw = WordList(spelling(guess::DrawMethods));
  Forward = WordList(spelling(guess::ForwardMethods));
  Ready = WordList(spelling(guess::ReadyMethods));
  const std::string &EvalSpelling = spelling(guess::EvalFunctions);
  EvalIsDefault = EvalSpelling == guess::EvalFunctions.Default;
  Eval = std::make_unique<llvm::Regex>(EvalSpelling);
  std::string Why;
  if (!Eval->isValid(Why)) {
    Error = "invalid regular expression in EvalFunctions '" + EvalSpelling +
            "': " + Why;
    Eval.reset();
  }
  llvm::StringRef Macro = spelling(guess::MacroFunctionsAreTests);
  MacroTests = !(Macro.equals_insensitive("false") || Macro == "0");
}

const std::string &NameGuesses::spelling(const NameGuessOption &Option) const {
  for (size_t I = 0; I < std::size(guess::All); ++I)
    if (guess::All[I] == &Option)
      return Spellings[I];
  llvm_unreachable("not a guess of guess::All");
}

bool NameGuesses::namesMetric(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::SmallVector<std::string, 4> Words = nameWords(FD->getName());
  return !Loss.matches(Words) && Metric.matches(Words);
}

bool NameGuesses::namesEvaluation(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier() || !Eval || !Eval->match(FD->getName()))
    return false;
  return !(EvalIsDefault && EvalExcept.matches(nameWords(FD->getName())));
}

bool NameGuesses::namesTestFunction(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier() || !FD->getReturnType()->isVoidType())
    return false;
  llvm::SmallVector<std::string, 4> Words = nameWords(FD->getName());
  return !Words.empty() &&
         (Test.matches(Words.front()) || Test.matches(Words.back()));
}

bool NameGuesses::macroNamesTest(const FunctionDecl *FD) const {
  return MacroTests && FD && FD->getIdentifier() &&
         FD->getLocation().isMacroID();
}

bool NameGuesses::namesThreadPool(llvm::StringRef Name) const {
  return Pool.containedIn(Name);
}

bool NameGuesses::namesPoolMethod(llvm::StringRef Name) const {
  return PoolMethods.contains(Name);
}

bool NameGuesses::namesDraw(const FunctionDecl *FD) const {
  if (!FD || !FD->getIdentifier())
    return false;
  llvm::SmallVector<std::string, 4> Words = nameWords(FD->getName());
  return Words.size() == 1 && Draw.contains(Words.front());
}

bool NameGuesses::namesForward(llvm::StringRef Name) const {
  return Forward.contains(Name);
}

bool NameGuesses::namesReadyMethod(llvm::StringRef Name) const {
  return Ready.begins(Name);
}

const NameGuesses &defaultNameGuesses() {
  static const NameGuesses Defaults;
  return Defaults;
}

} // namespace torch_tidy::analysis
