//===--- Names.h - Guesses from the names in users' code ------------------===//
//
// Where nothing in view says what a function or class of the user's does
// (its body is in another file, no summary or call site tells), a few rules
// guess from its name. Every such guess is here, and only here: each is
// documented as a guess, each has a check option that replaces its words
// (read by every check, locally or globally), and the analyses ask one only
// after what a body does, what its callers do and what the types say. A
// finding that rests on one says so in a note that names the option.
//
// Names of LibTorch's and the standard library's own API (`backward`,
// `eval`, `step`, `register_parameter`, `std::thread`) are facts about those
// libraries, not guesses, and stay with the analyses that use them.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_NAMES_H
#define TORCH_TIDY_ANALYSIS_NAMES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace torch_tidy::analysis {

/// The words of an identifier, lower case: its snake_case and camelCase
/// pieces (`getActionAndValue` -> get, action, and, value).
llvm::SmallVector<std::string, 4> nameWords(llvm::StringRef Name);

/// A list of words as an option spells it: entries separated by `;`, an
/// entry `a+b` matching a name that has every one of its words. A word of
/// an entry also matches its plural with a trailing `s`.
class WordList {
public:
  WordList() = default;
  explicit WordList(llvm::StringRef Spelling);
  /// Whether some entry has all its words among \p Words.
  bool matches(llvm::ArrayRef<std::string> Words) const;
  /// Whether \p Word is one of the list's single-word entries (no plural).
  bool contains(llvm::StringRef Word) const;
  /// Whether some single-word entry is a part of \p Text, lower-cased.
  bool containedIn(llvm::StringRef Text) const;
  /// Whether some single-word entry begins \p Text, lower-cased.
  bool begins(llvm::StringRef Text) const;
  const std::string &spelling() const { return Spelling; }

private:
  std::string Spelling;
  std::vector<std::vector<std::string>> Entries;
};

/// One guess: the option that holds its words, and its default.
struct NameGuessOption {
  const char *Option;
  const char *Default;
  const char *Guess; ///< what it guesses, for notes and documentation
};

/// The guesses, each under its option's name (see docs/analysis.md, "Guesses
/// from names").
namespace guess {
/// A function out of view whose name has one of these words computes a
/// metric: its result is of unknown origin, not history.
inline constexpr NameGuessOption MetricWords = {
    "MetricWords",
    "accuracy;acc;correct;count;precision;recall;f1;iou;miou;metric;score;"
    "auc;topk;top1;top5;bleu;hits;argmax;grad+norm;grads+norm;gradient+norm;"
    "gradients+norm",
    "its name says it computes a metric"};
/// ... unless it also has one of these: then it computes a loss.
inline constexpr NameGuessOption LossWords = {
    "LossWords", "loss;criterion;objective", "its name says it computes a loss"};
/// A function whose name matches is evaluation code; a helper out of view
/// so named, handed a model, runs it under its own guard.
inline constexpr NameGuessOption EvalFunctions = {
    "EvalFunctions",
    "^([Ee]val(uate)?|[Vv]alid(ate|ation)?|[Tt]est|[Pp]redict|[Ii]nfer(ence)?|"
    "[Aa]ct|[Gg]enerate|[Tt]ranslate|[Ff]orecast|"
    "([Cc]hoose|[Ss]elect|[Gg]et|[Pp]ick|[Tt]ake)_?[Aa]ctions?)([_A-Z0-9].*)?$",
    "its name says it evaluates"};
/// ... unless the default expression is used and the name also has one of
/// these words (`get_action_and_value`: an actor-critic's step that the
/// update runs with gradients).
inline constexpr NameGuessOption EvalFunctionsExceptWords = {
    "EvalFunctionsExceptWords", "value",
    "its name says it also computes what training needs"};
/// A function returning nothing whose first or last word is one of these
/// is a hand-written smoke test, run once.
inline constexpr NameGuessOption TestFunctionWords = {
    "TestFunctionWords", "test", "its name says it is a test run once"};
/// A function whose name comes from a macro is a test framework's case,
/// run once ("true" or "false").
inline constexpr NameGuessOption MacroFunctionsAreTests = {
    "MacroFunctionsAreTests", "true",
    "a function named by a macro is a test case, run once"};
/// A class or namespace whose name contains one of these runs work on other
/// threads ...
inline constexpr NameGuessOption ThreadPoolWords = {
    "ThreadPoolWords", "pool;executor;thread;worker;scheduler;taskqueue;task_queue",
    "its name says it is a thread pool"};
/// ... through its methods of these names.
inline constexpr NameGuessOption ThreadPoolMethods = {
    "ThreadPoolMethods",
    "enqueue;submit;post;push;push_task;detach_task;schedule;run;execute;"
    "dispatch;spawn;add_task;async;launch_no_thread_state",
    "a thread pool's method of this name runs what it is handed on another "
    "thread"};
/// A method of the user's distribution class with one of these names draws
/// without gradients, as torch.distributions' sample() does.
inline constexpr NameGuessOption DrawMethods = {
    "DrawMethods", "sample", "its name says it draws a sample without gradients"};
/// A module's method of one of these names runs its forward pass (LibTorch's
/// `forward`, and `Forward` in code that names methods in PascalCase).
inline constexpr NameGuessOption ForwardMethods = {
    "ForwardMethods", "forward;Forward", "its name says it runs the forward pass"};

/// A method whose name starts with one of these words makes its object
/// ready for use, as a constructor does: the mode it leaves a member module
/// in holds for the other methods.
inline constexpr NameGuessOption ReadyMethods = {
    "ReadyMethods", "load;setup;set_up;init;restore;prepare;open;build",
    "its name says it makes the object ready for use"};

/// Every guess, in the order the documentation lists them.
inline constexpr const NameGuessOption *All[] = {
    &MetricWords,       &LossWords,        &EvalFunctions,
    &EvalFunctionsExceptWords, &TestFunctionWords, &MacroFunctionsAreTests,
    &ThreadPoolWords,   &ThreadPoolMethods, &DrawMethods,
    &ForwardMethods,    &ReadyMethods};
} // namespace guess

/// The words of every guess, as the options set them.
class NameGuesses {
public:
  /// The defaults.
  NameGuesses();
  /// \p Value gives an option's spelling (its default when unset). An
  /// invalid EvalFunctions expression is reported in \p Error; no name then
  /// matches it.
  NameGuesses(llvm::function_ref<std::string(const NameGuessOption &)> Value,
              std::string &Error);

  /// The spelling of \p Option's words, as set.
  const std::string &spelling(const NameGuessOption &Option) const;

  /// Guess: \p FD computes a metric (MetricWords, and not LossWords).
  bool namesMetric(const clang::FunctionDecl *FD) const;
  /// Guess: \p FD evaluates (EvalFunctions, and not EvalFunctionsExceptWords
  /// with the default expression).
  bool namesEvaluation(const clang::FunctionDecl *FD) const;
  /// Guess: \p FD, returning nothing, is a smoke test run once
  /// (TestFunctionWords).
  bool namesTestFunction(const clang::FunctionDecl *FD) const;
  /// Guess: \p FD, named by a macro, is a test framework's case
  /// (MacroFunctionsAreTests).
  bool macroNamesTest(const clang::FunctionDecl *FD) const;
  /// Guess: a class or namespace named \p Name runs work on other threads
  /// (ThreadPoolWords).
  bool namesThreadPool(llvm::StringRef Name) const;
  /// Guess: a thread pool's method named \p Name runs a callable on another
  /// thread (ThreadPoolMethods).
  bool namesPoolMethod(llvm::StringRef Name) const;
  /// Guess: a distribution's method \p FD draws without gradients
  /// (DrawMethods).
  bool namesDraw(const clang::FunctionDecl *FD) const;
  /// Guess: a module's method named \p Name runs its forward pass
  /// (ForwardMethods).
  bool namesForward(llvm::StringRef Name) const;
  /// Guess: a method named \p Name makes its object ready for use
  /// (ReadyMethods: its name, lower-cased, starts with one of the words).
  bool namesReadyMethod(llvm::StringRef Name) const;

private:
  std::vector<std::string> Spellings; ///< one per guess::All entry
  WordList Metric, Loss, EvalExcept, Test, Pool, PoolMethods, Draw, Forward,
      Ready;
  std::unique_ptr<llvm::Regex> Eval;
  bool EvalIsDefault = true;
  bool MacroTests = true;
};

/// The guesses with every option at its default.
const NameGuesses &defaultNameGuesses();

} // namespace torch_tidy::analysis

#endif
