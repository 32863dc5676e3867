// Included before model.h, it makes model.h keep the graph.
#pragma once
#define KEEP_GRAPH 1
