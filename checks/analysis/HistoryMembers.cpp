//===--- HistoryMembers.cpp - H of a member of the user's class -----------===//
//
// A member outlives the call of the method that writes it: what one method
// leaves in it (`last_loss_ = criterion(net->forward(x), y);` in `step()`)
// is what another finds there (`history_.push_back(last_loss_);` in
// `log()`). H reads a member of the user's class through `this` as the
// method's own writes before the read say, and, where the method reads what
// it found on entry, as what the class's methods in the unit may leave in it.
// An object of such a class built in view holds what its constructor, and
// the methods of its own that the constructor calls, leave in its members.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/ExprUtils.h"
#include "checks/analysis/History.h"
#include "checks/analysis/SummaryData.h"
#include "checks/analysis/TorchTypes.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace torch_tidy::analysis {

bool followsMember(const FieldDecl *Field, const SourceManager &SM) {
  const auto *Class = dyn_cast<CXXRecordDecl>(Field->getParent());
  if (!Class || Class->isLambda() || Class->isInStdNamespace() ||
      SM.isInSystemHeader(Class->getLocation()))
    return false;
  if (!holdsTensorsOrFields(Field->getType()) ||
      isModuleClass(recordOf(Field->getType(), /*ThroughPointer=*/true)))
    return false;
  std::string Name = Class->getQualifiedNameAsString();
  llvm::StringRef Qualified(Name);
  return !Qualified.starts_with("torch::") && !Qualified.starts_with("at::") &&
         !Qualified.starts_with("c10::");
}

/// Whether \p Use reads its member through `this` (implicitly or not).
static bool readsThroughThis(const Expr *Use) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(stripWrappers(Use));
  return Member && isa<CXXThisExpr>(stripWrappers(Member->getBase()));
}

Carries HistoryAnalysis::ofMember(const FieldDecl *Field, const Expr *Use,
                                  int Element) {
  if (!Use || !readsThroughThis(Use) ||
      !followsMember(Field, Ctx.getSourceManager()))
    return ofField(Field);
  const FunctionFlow *Flow = flowAt(Use);
  if (!Flow || !Flow->valid())
    return memberState(Field);
  bool IsTensor = isTensorType(Field->getType());
  Carries Result = Carries::none();
  for (const Definition &Def : Flow->reachingDefinitions(Field, Use)) {
    Result |= Def.Kind == Definition::Entry ? memberState(Field)
                                            : ofDefinition(Def, IsTensor, Element);
    if (Result.mayHoldGraph())
      break;
  }
  return Result;
}

Carries HistoryAnalysis::leftAtExit(const FunctionFlow &Flow,
                                    const FieldDecl *Field, Carries Result,
                                    const Stmt **Witness) {
  bool IsTensor = isTensorType(Field->getType());
  for (const Definition &Left : Flow.definitionsAtExit(Field)) {
    if (Left.Kind == Definition::Entry)
      continue;
    Result |= ofDefinition(Left, IsTensor, WholeValue);
    if (Result.mayHoldGraph()) {
      if (Witness)
        *Witness = Left.At;
      break;
    }
  }
  return Result;
}

Carries HistoryAnalysis::leftInMember(const FunctionDecl *Def,
                                      const FieldDecl *Field) {
  const FunctionFlow *Flow = Def ? flowOf(Def) : nullptr;
  if (!Flow || !Flow->valid())
    return Carries::none();
  return leftAtExit(*Flow, Field, Carries::none(), nullptr);
}

Carries HistoryAnalysis::memberState(const FieldDecl *Field) {
  if (auto It = MemberStates.find(Field); It != MemberStates.end())
    return It->second;
  if (!MembersInProgress.insert(Field).second) {
    ++CycleHits;
    return Carries::none(); // read while its writes are being followed
  }
  unsigned CyclesBefore = CycleHits;
  const auto *Class = cast<CXXRecordDecl>(Field->getParent());
  Carries Result = Carries::none();
  if (const Expr *Init = Field->getInClassInitializer())
    Result |= of(Init, WholeValue);
  for (const CXXMethodDecl *Method : Class->methods()) {
    const FunctionDecl *Def = Method->getDefinition();
    if (!Def || !Def->hasBody() || Result.mayHoldGraph())
      continue;
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Def))
      for (const CXXCtorInitializer *Init : Ctor->inits())
        if (Init->getMember() == Field && Init->isWritten())
          Result |= of(Init->getInit(), WholeValue);
    const FunctionFlow *Flow = flowOf(Def);
    if (!Flow || !Flow->valid())
      continue;
    const Stmt *Witness = nullptr;
    Result = leftAtExit(*Flow, Field, Result, &Witness);
    if (Witness)
      MemberWrites.try_emplace(Field, Witness);
  }
  MembersInProgress.erase(Field);
  // What the methods of other units leave in it.
  if (Options.Summaries)
    if (const PassedSummary *Elsewhere = Options.Summaries->member(Field)) {
      if (!Result.mayHoldGraph() && Elsewhere->Passed.mayHoldGraph())
        ForeignMemberWrites.try_emplace(Field, Elsewhere->At);
      Result |= Elsewhere->Passed;
    }
  // Nothing the unit shows leaves history in it: what its registration
  // says (a parameter, a buffer), or unknown.
  if (!Result.mayHoldGraph())
    Result = ofField(Field);
  if (CycleHits == CyclesBefore || Result.mayHoldGraph())
    MemberStates[Field] = Result;
  return Result;
}

/// The methods of \p Class that \p Body calls on its own object
/// (`physics_loss(input);` in a constructor), and those they call, two
/// levels deep: their bodies write the object being built. A virtual one
/// may run another body, and is left out.
static llvm::SmallVector<const FunctionDecl *, 4>
ownMethodsCalled(const CXXRecordDecl *Class, const Stmt *Body) {
  llvm::SmallVector<const FunctionDecl *, 4> Found;
  llvm::SmallVector<std::pair<const Stmt *, unsigned>, 16> Work{{Body, 0}};
  while (!Work.empty()) {
    auto [S, Depth] = Work.pop_back_val();
    if (!S || isa<LambdaExpr>(S))
      continue;
    if (const auto *Call = dyn_cast<CXXMemberCallExpr>(S); Call && Depth < 2)
      if (const CXXMethodDecl *Method = Call->getMethodDecl();
          Method && !Method->isVirtual() && Method->getParent() == Class &&
          isa<CXXThisExpr>(stripWrappers(Call->getImplicitObjectArgument())))
        if (const FunctionDecl *Def = Method->getDefinition();
            Def && Def->hasBody() && !llvm::is_contained(Found, Def)) {
          Found.push_back(Def);
          Work.push_back({Def->getBody(), Depth + 1});
        }
    for (const Stmt *Child : S->children())
      Work.push_back({Child, Depth});
  }
  return Found;
}

std::optional<Carries>
HistoryAnalysis::ofConstructed(const CXXConstructExpr *Construct, int Element) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  const FunctionDecl *Def = nullptr;
  if (!Ctor || Ctor->isCopyOrMoveConstructor() || !Ctor->hasBody(Def) ||
      !mayFollowInto(Def))
    return std::nullopt;
  const auto *CtorDef = cast<CXXConstructorDecl>(Def);
  const CXXRecordDecl *Class = Ctor->getParent();
  if (CtorDef->isDelegatingConstructor() || isModuleClass(Class) ||
      llvm::any_of(Class->bases(),
                   [](const CXXBaseSpecifier &Base) {
                     return holdsTensorsOrFields(Base.getType());
                   }) ||
      llvm::none_of(Class->fields(), [&](const FieldDecl *Field) {
        return followsMember(Field, Ctx.getSourceManager());
      }))
    return std::nullopt;
  llvm::SmallVector<const FunctionDecl *, 4> Writers{Def};
  llvm::append_range(Writers, ownMethodsCalled(Class, Def->getBody()));
  ConstructStack.push_back(Construct);
  Carries Result = Carries::none();
  for (const FieldDecl *Field : Class->fields()) {
    if ((Element >= 0 &&
         Field->getFieldIndex() != static_cast<unsigned>(elementHead(Element))) ||
        !followsMember(Field, Ctx.getSourceManager()))
      continue;
    int Part = Element >= 0 ? elementRest(Element) : WholeValue;
    // What it starts with: its initializer in the constructor, or in the
    // class.
    const CXXCtorInitializer *Written = nullptr;
    for (const CXXCtorInitializer *Init : CtorDef->inits())
      if (Init->getMember() == Field && Init->isWritten())
        Written = Init;
    if (Written)
      Result |= of(Written->getInit(), Part);
    else if (const Expr *InClass = Field->getInClassInitializer())
      Result |= of(InClass, Part);
    // What the constructor's body and the methods it calls leave in it.
    bool IsTensor = isTensorType(Field->getType());
    for (const FunctionDecl *Writer : Writers) {
      const FunctionFlow *Flow = flowOf(Writer);
      if (!Flow || !Flow->valid())
        continue;
      for (const Definition &Left : Flow->definitionsAtExit(Field))
        if (Left.Kind != Definition::Entry)
          Result |= ofDefinition(Left, IsTensor, Part);
    }
    if (Result.mayHoldGraph())
      break;
  }
  ConstructStack.pop_back();
  return Result;
}

std::optional<HistoryAnalysis::MemberWrite>
HistoryAnalysis::memberWitness(const Expr *E) {
  // The members read through `this` in E, E itself first, and in what the
  // functions it calls return (a getter: `t.loss()`), two calls deep.
  llvm::SmallVector<std::pair<const Stmt *, unsigned>, 8> Work{{E, 0}};
  while (!Work.empty()) {
    auto [S, Depth] = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S); Call && Depth < 2)
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        if (const FunctionDecl *Def = Callee->getDefinition();
            Def && Def->hasBody() && !isLibraryFunction(Def))
          for (const Expr *Value : returnedValues(Def->getBody()))
            Work.push_back({Value, Depth + 1});
    if (const auto *Read = dyn_cast<Expr>(S); Read && readsThroughThis(Read)) {
      const auto *Field =
          dyn_cast<FieldDecl>(cast<MemberExpr>(stripWrappers(Read))->getMemberDecl());
      if (Field && followsMember(Field, Ctx.getSourceManager()) &&
          memberState(Field).mayHoldGraph() &&
          (MemberWrites.count(Field) || ForeignMemberWrites.count(Field))) {
        // Only when the read sees what the method found on entry.
        const FunctionFlow *Flow = flowAt(Read);
        bool FromEntry = !Flow || !Flow->valid();
        if (!FromEntry)
          for (const Definition &Def : Flow->reachingDefinitions(Field, Read))
            FromEntry |= Def.Kind == Definition::Entry;
        if (FromEntry)
          return MemberWrite{Field, MemberWrites.lookup(Field),
                             ForeignMemberWrites.lookup(Field)};
      }
    }
    if (isa<LambdaExpr>(S))
      continue;
    for (const Stmt *Child : S->children())
      Work.push_back({Child, Depth});
  }
  return std::nullopt;
}

} // namespace torch_tidy::analysis
