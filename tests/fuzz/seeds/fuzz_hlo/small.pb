
SyncTensorsGraph.1main.2P
AddComputation.1
x.0	parameter
x.1	parameter
x.2add(
main.2
i0dot"(