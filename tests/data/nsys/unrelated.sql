-- An SQLite database that is no Nsight Systems export (an application's
-- own data): the nsys format must not claim it.
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT);
INSERT INTO settings VALUES ('theme', 'dark');
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
