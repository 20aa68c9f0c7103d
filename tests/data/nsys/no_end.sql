-- A kernel table without its end column: the table is unusable, and the
-- reader says which column is missing.
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, streamId INTEGER NOT NULL,
  shortName INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 0, 7, 1);
