-- Generated from the Alembic migrations by `python -m specdb.db.sqlschema`; do not edit.
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
CREATE TABLE meta (
	"key" VARCHAR NOT NULL, 
	value VARCHAR NOT NULL, 
	CONSTRAINT pk_meta PRIMARY KEY ("key")
);
CREATE TABLE record (
	id VARCHAR NOT NULL, 
	kind VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	vendor VARCHAR, 
	family VARCHAR, 
	released VARCHAR, 
	released_date VARCHAR, 
	notes VARCHAR, 
	path VARCHAR NOT NULL, 
	CONSTRAINT pk_record PRIMARY KEY (id)
);
CREATE INDEX ix_record_kind ON record (kind);
CREATE TABLE source (
	id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	publisher VARCHAR NOT NULL, 
	url VARCHAR, 
	citation VARCHAR, 
	published VARCHAR, 
	accessed VARCHAR, 
	notes VARCHAR, 
	path VARCHAR NOT NULL, fingerprint VARCHAR, 
	CONSTRAINT pk_source PRIMARY KEY (id)
);
CREATE TABLE alias (
	alias_key VARCHAR NOT NULL, 
	alias VARCHAR NOT NULL, 
	record_id VARCHAR NOT NULL, 
	CONSTRAINT pk_alias PRIMARY KEY (alias_key), 
	CONSTRAINT fk_alias_record_id_record FOREIGN KEY(record_id) REFERENCES record (id)
);
CREATE INDEX ix_alias_record_id ON alias (record_id);
CREATE TABLE figure (
	id INTEGER NOT NULL, 
	record_id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	value_text VARCHAR NOT NULL, 
	value FLOAT NOT NULL, 
	unit VARCHAR NOT NULL, 
	dimension VARCHAR NOT NULL, 
	direction VARCHAR, 
	scope VARCHAR, 
	status VARCHAR NOT NULL, 
	as_of VARCHAR NOT NULL, 
	as_of_text VARCHAR NOT NULL, 
	reviewed VARCHAR NOT NULL, 
	reviewed_text VARCHAR NOT NULL, 
	precision VARCHAR, 
	sparsity VARCHAR, 
	method VARCHAR, 
	note VARCHAR, 
	uncertainty VARCHAR, 
	derived_product VARCHAR, 
	derived_factor FLOAT, 
	warn_after VARCHAR, 
	error_after VARCHAR, 
	CONSTRAINT pk_figure PRIMARY KEY (id), 
	CONSTRAINT fk_figure_record_id_record FOREIGN KEY(record_id) REFERENCES record (id), 
	CONSTRAINT uq_figure_record_id UNIQUE (record_id, name)
);
CREATE INDEX ix_figure_name ON figure (name);
CREATE INDEX ix_figure_record_id ON figure (record_id);
CREATE INDEX ix_figure_reviewed ON figure (reviewed);
CREATE TABLE record_use (
	record_id VARCHAR NOT NULL, 
	role VARCHAR NOT NULL, 
	target_id VARCHAR NOT NULL, 
	CONSTRAINT pk_record_use PRIMARY KEY (record_id, role), 
	CONSTRAINT fk_record_use_record_id_record FOREIGN KEY(record_id) REFERENCES record (id), 
	CONSTRAINT fk_record_use_target_id_record FOREIGN KEY(target_id) REFERENCES record (id)
);
CREATE INDEX ix_record_use_target_id ON record_use (target_id);
CREATE TABLE claim (
	id INTEGER NOT NULL, 
	figure_id INTEGER NOT NULL, 
	claim_kind VARCHAR NOT NULL, 
	position INTEGER NOT NULL, 
	value_text VARCHAR NOT NULL, 
	value FLOAT NOT NULL, 
	unit VARCHAR NOT NULL, 
	status VARCHAR, 
	direction VARCHAR, 
	scope VARCHAR, 
	as_of VARCHAR, 
	reviewed VARCHAR, 
	reason VARCHAR, 
	note VARCHAR, 
	CONSTRAINT pk_claim PRIMARY KEY (id), 
	CONSTRAINT fk_claim_figure_id_figure FOREIGN KEY(figure_id) REFERENCES figure (id)
);
CREATE INDEX ix_claim_figure_id ON claim (figure_id);
CREATE TABLE citation (
	id INTEGER NOT NULL, 
	figure_id INTEGER NOT NULL, 
	claim_id INTEGER, 
	position INTEGER NOT NULL, 
	source_id VARCHAR NOT NULL, 
	quote VARCHAR, 
	locator VARCHAR, 
	note VARCHAR, 
	CONSTRAINT pk_citation PRIMARY KEY (id), 
	CONSTRAINT fk_citation_claim_id_claim FOREIGN KEY(claim_id) REFERENCES claim (id), 
	CONSTRAINT fk_citation_figure_id_figure FOREIGN KEY(figure_id) REFERENCES figure (id), 
	CONSTRAINT fk_citation_source_id_source FOREIGN KEY(source_id) REFERENCES source (id)
);
CREATE INDEX ix_citation_claim_id ON citation (claim_id);
CREATE INDEX ix_citation_figure_id ON citation (figure_id);
CREATE INDEX ix_citation_source_id ON citation (source_id);
CREATE VIEW figure_view AS SELECT f.record_id, r.kind, r.name AS record_name, r.vendor, f.name AS figure, f.value_text, f.value, f.unit, f.direction, f.scope, f.status, f.as_of, f.reviewed, (SELECT group_concat(c.source_id, ' ') FROM citation c WHERE c.figure_id = f.id AND c.claim_id IS NULL) AS sources FROM figure f JOIN record r ON r.id = f.record_id;
CREATE TABLE collective_run (
	figure_id INTEGER NOT NULL, 
	operation VARCHAR NOT NULL, 
	accelerators INTEGER NOT NULL, 
	size_bytes FLOAT, 
	size_text VARCHAR, 
	algorithm VARCHAR NOT NULL, 
	library VARCHAR NOT NULL, 
	domains INTEGER, 
	CONSTRAINT pk_collective_run PRIMARY KEY (figure_id), 
	CONSTRAINT fk_collective_run_figure_id_figure FOREIGN KEY(figure_id) REFERENCES figure (id)
);
CREATE TABLE record_digest (
	id VARCHAR NOT NULL, 
	digest VARCHAR NOT NULL, 
	CONSTRAINT pk_record_digest PRIMARY KEY (id)
);
CREATE TABLE runtime_name (
	name_key VARCHAR NOT NULL, 
	reported_by VARCHAR NOT NULL, 
	record_id VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	source_id VARCHAR NOT NULL, 
	CONSTRAINT pk_runtime_name PRIMARY KEY (name_key, reported_by, record_id), 
	CONSTRAINT fk_runtime_name_record_id_record FOREIGN KEY(record_id) REFERENCES record (id), 
	CONSTRAINT fk_runtime_name_source_id_source FOREIGN KEY(source_id) REFERENCES source (id)
);
CREATE INDEX ix_runtime_name_record_id ON runtime_name (record_id);
INSERT INTO alembic_version (version_num) VALUES ('0006');
