// Counts the policy's parameters: includes the header and calls none of
// its methods.
#include "policy.h"

size_t count(ActorCritic &policy) { return policy.parameters().size(); }
