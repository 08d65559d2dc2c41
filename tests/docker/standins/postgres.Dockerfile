# A stand-in for the official postgres:15-bookworm image, built from
# Debian's packages by tests/docker/image_test.sh where that image cannot be
# pulled, under its name. It honours what docker/compose.cluster.yml uses:
# POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB on the first start, the
# data in /var/lib/postgresql/data, pg_isready, a fast shutdown on SIGINT.
FROM debian:bookworm-slim
SHELL ["/bin/bash", "-euo", "pipefail", "-c"]
# No cluster at install time: the entrypoint makes it in the volume.
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
ENV PATH=/usr/lib/postgresql/15/bin:$PATH \
    PGDATA=/var/lib/postgresql/data
COPY --chmod=0755 postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
