// The scripts ShellJobRunner runs on a host (shelljobscripts.cpp says what each takes, prints and exits with).
#pragma once

namespace ingot::jobscripts {

extern const char *const kPrelude;
extern const char *const openScript;
extern const char *const makeFolderScript;
extern const char *const writeScript;
extern const char *const startScript;
extern const char *const readScript;
extern const char *const listScript;
extern const char *const removeScript;
extern const char *const treeSizeScript;
extern const char *const pathInfoScript;
extern const char *const procScript;
extern const char *const signalScript;
extern const char *const groupScript;
extern const char *const childrenScript;
extern const char *const portsScript;
extern const char *const bootScript;
extern const char *const pythonsScript;
extern const char *const backendSumFunction;
extern const char *const backendCheckScript;
extern const char *const backendDeployScript;
extern const char *const ingotCliScript;
extern const char *const ingotCliStartScript;
extern const char *const ingotCliWaitScript;
extern const char *const ingotCliStopScript;
extern const char *const ingotCliRemoveScript;

}  // namespace ingot::jobscripts
