-- The server side of a grouped report, timed (psql; bench/store-backends.sh GROUPED=1).
-- walk: the query `report` streams now; parse: JSON text to jsonb, every record; grouped:
-- per run and test, the exact sums of one figure (core/store_pg_sums.c: exponent, integer
-- mantissa, summed as numeric per exponent), min, max and the first record id.
\timing on
\echo walk: the rows report reads now
\o /dev/null
SELECT r.json, ru.uid FROM records r JOIN runs ru ON ru.import_id = r.import_id AND ru.run = r.run ORDER BY r.import_id, r.id;
\o
\echo parse: every record JSON on the server
\o /dev/null
SELECT count(DISTINCT (json::jsonb)->>'test') FROM records;
\o
\echo grouped: per run and test, exact sums of bw_bytes_s (exponent, mantissa), min, max, first id
\o /dev/null
WITH v AS (SELECT r.import_id, r.run, r.tool, r.test, j->'labels' AS labels, j->>'bs' AS bs,
                  j->>'iodepth' AS iodepth, j->>'numjobs' AS numjobs, r.id,
                  (j->>'bw_bytes_s')::float8 AS x
           FROM (SELECT *, json::jsonb AS j FROM records) r),
     b AS (SELECT v.*, (('x' || encode(float8send(x), 'hex'))::bit(64)::bigint) AS bits FROM v WHERE x IS NOT NULL),
     m AS (SELECT import_id, run, tool, test, labels::text AS labels, bs, iodepth, numjobs, id, x,
                  (CASE WHEN ((bits >> 52) & 2047) = 0 THEN -1074 ELSE ((bits >> 52) & 2047)::int - 1075 END) AS e,
                  ((CASE WHEN bits < 0 THEN -1 ELSE 1 END) * ((bits & 4503599627370495) |
                   (CASE WHEN ((bits >> 52) & 2047) = 0 THEN 0 ELSE 4503599627370496 END))) AS m
           FROM b)
SELECT import_id, run, tool, test, labels, bs, iodepth, numjobs, e, count(*), sum(m)::text,
       sum(m::numeric * m)::text, min(x), max(x), min(id)
FROM m GROUP BY import_id, run, tool, test, labels, bs, iodepth, numjobs, e;
\o
