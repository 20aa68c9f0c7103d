"""The smallest Nsight Systems SQLite export profreport reads, for the
tests' hand-made captures: the export's metadata, one process and the
kernel and runtime tables (the columns the nsys reader asks for)."""
import sqlite3

SCHEMA = """
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
INSERT INTO META_DATA_EXPORT VALUES
  ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
  ('EXPORT_SCHEMA_VERSION', '3.25.0');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
  start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL,
  shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  graphNodeId INTEGER, graphId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (
  start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, callchainId INTEGER);
"""

# the process's globalPid; its main thread's globalTid is GPID | pid
GPID = (1 << 48) | (100 << 24)
RUNTIME = "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, ?, ?, ?, 0, NULL)"


def export(path, names, process="app"):
    """A new export at path whose StringIds are names (ids from 1), with
    one process (pid 100): the open connection."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO StringIds VALUES (?, ?)",
                   [(i + 1, n) for i, n in enumerate(names)])
    db.execute("INSERT INTO PROCESSES VALUES (?, 100, ?)", (GPID, process))
    return db


def process(db, pid, name="app"):
    """One more process (a second rank of the capture): its globalPid,
    for runtime() and kernel()."""
    gpid = (1 << 48) | (pid << 24)
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (gpid, pid, name))
    return gpid


def runtime(db, start, end, corr, name_id, gpid=GPID):
    """A runtime call on the process's main thread."""
    db.execute(RUNTIME, (start, end, gpid | ((gpid >> 24) & 0xFFFFFF), corr,
                         name_id))


def kernel(db, start, end, corr, name_id, stream=7, device=0, gpid=GPID):
    """A kernel on the device launched by the runtime call corr."""
    db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, 1, ?, "
               "?, ?, ?, ?, 32, 1, 1, 1, 128, 1, 1, 0, 0, NULL, NULL)",
               (start, end, device, stream, corr, gpid, name_id, name_id))
