-- npu_task.sql: the smallest torch_npu database the Ascend reader takes
-- (a string table and TASK), for the tests that put hostile rows in it
CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY, value TEXT);
INSERT INTO STRING_IDS VALUES (1, 'MatMul'), (2, 'KERNEL_AICORE');
CREATE TABLE TASK (startNs INTEGER, endNs INTEGER, deviceId INTEGER,
    connectionId INTEGER, globalTaskId INTEGER, globalPid INTEGER,
    taskType INTEGER, contextId INTEGER, streamId INTEGER, taskId INTEGER,
    modelId INTEGER);
