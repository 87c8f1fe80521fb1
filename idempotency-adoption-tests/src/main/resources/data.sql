INSERT INTO users (username, password, enabled)
SELECT 'admin', '{noop}admin', TRUE WHERE NOT EXISTS (SELECT 1 FROM users WHERE username = 'admin');
INSERT INTO authorities (username, authority)
SELECT 'admin', 'ROLE_OWNER_ADMIN' WHERE NOT EXISTS (SELECT 1 FROM authorities WHERE username = 'admin');

INSERT INTO users (username, password, enabled)
SELECT 'vet', '{noop}vet', TRUE WHERE NOT EXISTS (SELECT 1 FROM users WHERE username = 'vet');
INSERT INTO authorities (username, authority)
SELECT 'vet', 'ROLE_VET_ADMIN' WHERE NOT EXISTS (SELECT 1 FROM authorities WHERE username = 'vet');
