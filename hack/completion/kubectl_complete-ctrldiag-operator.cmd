@echo off
rem Shell completion of `kubectl ctrldiag operator` on Windows: with kubectl-ctrldiag-operator.exe
rem on PATH, kubectl (1.26 and later) runs this file, found on PATH by this name, for
rem `kubectl ctrldiag operator <TAB>`. The operator answers for itself.
kubectl-ctrldiag-operator.exe __complete %*
