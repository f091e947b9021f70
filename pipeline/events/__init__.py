"""ChEMU 2020 Task 2 event arguments: which entities each trigger acts on (stage package)."""
