# A stand-in for the official nginx:1.22 image, built from Debian's nginx
# 1.22 package by tests/docker/image_test.sh where that image cannot be
# pulled, under its name. docker/compose.cluster.yml mounts its own
# /etc/nginx/nginx.conf; bash is there for its healthcheck.
FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nginx \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
EXPOSE 80
STOPSIGNAL SIGQUIT
CMD ["nginx", "-g", "daemon off;"]
