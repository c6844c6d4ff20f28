# Boneyard game server. Build and run with compose (compose.yaml): `docker compose up -d`.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY protocol ./protocol
COPY server ./server
COPY clients ./clients
RUN pip install '.[cluster]' \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin boneyard \
    && mkdir /data && chown boneyard:boneyard /data

# Every setting is a BONEYARD_* variable (server/settings.py); these are the container's defaults.
ENV BONEYARD_HOST=0.0.0.0 \
    BONEYARD_PORT=8765 \
    BONEYARD_DB=/data/boneyard.db \
    BONEYARD_LOG_FORMAT=json

USER boneyard
VOLUME ["/data"]
EXPOSE 8765
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-m", "boneyard.server.healthcheck"]
STOPSIGNAL SIGTERM
CMD ["boneyard-server", "serve"]
