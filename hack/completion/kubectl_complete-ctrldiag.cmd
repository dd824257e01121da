@echo off
rem Shell completion of `kubectl ctrldiag` on Windows: kubectl (1.26 and later) runs this file,
rem found on PATH by this name, for `kubectl ctrldiag <TAB>`. The plugin answers for itself.
kubectl-ctrldiag.exe __complete %*
