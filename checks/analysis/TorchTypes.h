//===--- TorchTypes.h - Recognising LibTorch types and calls --------------===//
//
// Which declarations are LibTorch's, by their canonical declarations, so that
// every spelling (torch::, at::, c10::, typedefs, using) is recognised alike.
//
//===----------------------------------------------------------------------===//
#ifndef TORCH_TIDY_ANALYSIS_TORCHTYPES_H
#define TORCH_TIDY_ANALYSIS_TORCHTYPES_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace torch_tidy::analysis {

class NameGuesses;

/// The class \p T names, after references, cv and sugar (and, with
/// \p ThroughPointer, after a pointer), if it names one.
const clang::CXXRecordDecl *recordOf(clang::QualType T,
                                     bool ThroughPointer = false);

/// The first template argument of the class template specialisation \p RD,
/// when it is a type (a std::vector's element, a std::shared_ptr's pointee);
/// a null type otherwise.
clang::QualType firstTypeArgument(const clang::CXXRecordDecl *RD);

/// Whether \p RD, or one of its bases, satisfies \p Pred.
bool isOrDerivesFrom(const clang::CXXRecordDecl *RD,
                     llvm::function_ref<bool(const clang::CXXRecordDecl *)> Pred);

/// Whether \p RD is the class \p QualifiedName or derives from it.
bool derivesFrom(const clang::CXXRecordDecl *RD, llvm::StringRef QualifiedName);

/// Whether \p T (after references, cv and sugar) is at::Tensor or a class
/// derived from it.
bool isTensorType(clang::QualType T);

/// Whether \p T holds tensors: a tensor, a class template specialisation
/// (std::vector, std::tuple, std::map, c10::optional, ...) with a tensor-holding
/// type argument, or a class derived from one.
bool holdsTensors(clang::QualType T);

/// Whether a value of type \p T is only numbers, which carry no autograd
/// history whatever they were read from: an arithmetic or enumeration type,
/// a c10::Scalar, a string, or an array, vector or ArrayRef (sizes,
/// `IntArrayRef`) of those.
bool holdsOnlyNumbers(clang::QualType T);

/// Whether \p T holds tensors, or is a class (a struct returned by a module,
/// a result record) with a member that does.
bool holdsTensorsOrFields(clang::QualType T);

/// Whether \p T is a standard container (vector, deque, array, map, ...)
/// of records with a member that holds tensors: a replay memory of
/// transitions, a list of per-epoch loss records. The container itself
/// need not hold tensors by holdsTensors(), which looks only through
/// template arguments.
bool holdsTensorRecords(clang::QualType T);

/// Whether \p T is a plain struct of tensors: an aggregate outside std
/// and LibTorch with a field that holds tensors or is such a struct itself
/// (`struct Losses { torch::Tensor total, recon; };`). H follows its fields
/// one by one, as it does a tuple's elements.
bool isTensorAggregate(clang::QualType T);

/// Whether a value of type \p T can hold a tensor: one that holds tensors
/// or is a struct of them, a TorchScript value (IValue, its tuples and
/// their elements), or a class template instance over one
/// (std::vector<IValue>, c10::intrusive_ptr<ivalue::Tuple>, ...).
bool mayHoldTensors(clang::QualType T);

/// Whether a call of \p MD may run an override that the unit cannot see: a
/// virtual method, neither it nor its class final.
bool mayBeOverridden(const clang::CXXMethodDecl *MD);

/// Whether \p FD is LibTorch's: in namespace at, torch or c10 (a method of
/// one of their classes included).
bool isTorchFunction(const clang::FunctionDecl *FD);

/// Whether \p FD is LibTorch's or the standard library's (a method of a std
/// class included, which isInStdNamespace() does not count).
bool isLibraryFunction(const clang::FunctionDecl *FD);

/// Whether \p FD belongs to a test or benchmark framework: declared in
/// namespace Catch (Catch2), testing (googletest), doctest or benchmark
/// (Google Benchmark), at any depth. Such a framework runs the callables it
/// is handed and compares or measures what they return; it has no backward
/// pass of its own.
bool isTestHarnessFunction(const clang::FunctionDecl *FD);

/// Whether \p FD is `at::Tensor::backward`, `torch::autograd::backward` or
/// `torch::autograd::grad`: a call that runs a backward pass.
bool isBackwardFunction(const clang::FunctionDecl *FD);

/// The tensors whose graph the backward pass \p Call walks: the object of
/// `t.backward(...)`, the first argument of autograd::backward/grad.
const clang::Expr *backwardRoots(const clang::CallExpr *Call);

/// Whether \p Call is an in-place tensor method (`add_`, `sigmoid_`,
/// `detach_`): named with a trailing underscore, on a tensor, returning one.
bool isInPlaceTensorCall(const clang::CXXMemberCallExpr *Call);

/// Whether \p Call makes a view of a tensor (`view`, `reshape`, `flatten`,
/// `transpose`, `permute`, ...): what is written into it in place is
/// written into the tensor (a reshape that copies takes the write with it
/// to nothing, which is the rarer case).
bool isViewTensorCall(const clang::CXXMemberCallExpr *Call);

/// The tensor an in-place chain writes into: `ema` for `ema.mul_(0.9)` and
/// for `ema.mul_(0.9).add_(x)` (in-place methods return their object), and
/// `proj` for `proj.view({-1}).index_add_(0, i, x)` (through views);
/// \p E itself otherwise.
const clang::Expr *inPlaceChainRoot(const clang::Expr *E);

/// Whether a tensor operation named \p Name returns a value without
/// history whatever its operands carry (`detach`, `item`, `argmax`,
/// comparisons, `multinomial`, integer conversions, ...).
bool isCutName(llvm::StringRef Name);

/// Whether \p Name is one of LibTorch's functions that make a new tensor
/// from sizes and numbers alone (`zeros`, `randn`, `arange`, `eye`, ...):
/// what they return is nobody's data, and has history only if asked for.
bool makesTensorFromSizes(llvm::StringRef Name);

/// Whether \p E is a dtype constant naming an integer or bool type.
bool isIntegralDtype(const clang::Expr *E, const clang::ASTContext &Ctx);

/// Whether the call \p E returns a value without history whatever its
/// operands carry: detach(), item(), argmax, comparisons, integer and bool
/// conversions, ...
bool cutsHistory(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The index of \p FD's parameter named \p Name, if it has one.
std::optional<unsigned> parameterIndex(const clang::FunctionDecl *FD,
                                       llvm::StringRef Name);

/// The value of a boolean or optional<bool> argument, where it is a constant.
enum class OptionalBool { True, False, None, Unknown };
OptionalBool evaluateOptionalBool(const clang::Expr *E,
                                  const clang::ASTContext &Ctx);

/// Whether \p RD is std::shared_ptr or std::unique_ptr.
bool isSmartPointer(const clang::CXXRecordDecl *RD);

/// The class an object of type \p T is, through references, pointers and
/// std::shared_ptr / std::unique_ptr.
const clang::CXXRecordDecl *objectClass(clang::QualType T);

/// Whether the outermost namespace of \p D is one of \p Roots.
bool isInNamespace(const clang::Decl *D, llvm::ArrayRef<llvm::StringRef> Roots);

/// Whether \p D is declared in namespace std, torch, at or c10: a library's,
/// not a class or function of the user's.
bool inLibraryNamespace(const clang::Decl *D);

/// Whether \p RD is torch::nn::Module, torch::jit::Module, a
/// torch::nn::ModuleHolder or AnyModule, or a class derived from one.
bool isModuleClass(const clang::CXXRecordDecl *RD);

/// Whether \p E runs a module's forward: `m->forward(x)`, `m(x)` through a
/// ModuleHolder, `seq->forward(x)`, `any.forward(x)`, `jit_module.forward(...)`,
/// a module's method that \p Names takes for a forward pass (`Forward` in
/// code that names its methods in PascalCase), or a method of the user's
/// module class whose body is not in the unit, handed a tensor and returning
/// tensors (`actor.sample_normal(state)`).
bool isForwardCall(const clang::Expr *E, const NameGuesses &Names);

/// Whether \p E is a forward pass (isForwardCall) only because it is a
/// method of the user's module class whose body is not in the unit, handed
/// a tensor and returning tensors: an assumption about code out of view.
bool isForwardCallOutOfView(const clang::Expr *E, const NameGuesses &Names);

/// The user's method that the forward pass \p Forward runs, where it can be
/// named: the method a member call names (`net->forward(x)`,
/// `actor.sample(s)`), the call operator of the user's class, or for `m(x)`
/// through a ModuleHolder the module's `forward` that takes as many
/// arguments. Null for LibTorch's own modules and where none is known.
const clang::FunctionDecl *forwardCallee(const clang::Expr *Forward);

/// The module class whose forward \p Forward runs, as its type says: the
/// class the method is called on, or for a ModuleHolder (`pad(x)`,
/// `pad->forward(x)`) the module it holds. Null where none is known.
const clang::CXXRecordDecl *moduleRunBy(const clang::Expr *Forward);

/// Whether \p Impl is one of LibTorch's own modules that holds no
/// parameter, as its members say (nothing but numbers, enums and its
/// options, and no `reset_parameters()`, in it and in its bases up to
/// torch::nn::Module): padding,
/// pooling, activations, dropout, flatten, upsampling. Its forward records
/// a graph only where its input carries one.
bool isParameterFreeLibraryModule(const clang::CXXRecordDecl *Impl);

/// Every forward pass (isForwardCall) in \p S, lambdas included.
llvm::SmallVector<const clang::CallExpr *, 4>
forwardCallsIn(const clang::Stmt *S, const NameGuesses &Names);

} // namespace torch_tidy::analysis

#endif
