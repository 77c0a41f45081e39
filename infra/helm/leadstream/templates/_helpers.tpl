{{/* Names and labels. */}}
{{- define "leadstream.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "leadstream.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "leadstream.selectorLabels" -}}
app.kubernetes.io/name: {{ include "leadstream.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "leadstream.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "leadstream.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: leadstream
{{- end -}}

{{- define "leadstream.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "leadstream.secretName" -}}
{{- if .Values.secrets.generate -}}
{{- printf "%s-secrets" (include "leadstream.fullname" .) -}}
{{- else if .Values.secrets.existingSecret -}}
{{- .Values.secrets.existingSecret -}}
{{- else -}}
{{- fail "set secrets.existingSecret to the name of a Secret holding JWT_SECRET and CRM_CREDENTIALS_KEY, or secrets.generate=true (docs/operations.md)" -}}
{{- end -}}
{{- end -}}

{{/* PIPELINE_SPLIT as a list, whether given as a list or as a comma-separated string. */}}
{{- define "leadstream.pipelineSplit" -}}
{{- $split := .Values.pipelineSplit | default list -}}
{{- if kindIs "string" $split -}}
{{- $split = splitList "," $split -}}
{{- end -}}
{{- $names := list -}}
{{- range $split -}}
{{- $name := . | toString | trim -}}
{{- if and $name (ne $name "none") -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "split" $names) -}}
{{- end -}}

{{/*
The shutdown drain (SHUTDOWN_TIMEOUT_MS, rounded up to seconds) plus a margin: the pod's
terminationGracePeriodSeconds.
*/}}
{{- define "leadstream.terminationGracePeriodSeconds" -}}
{{- $ms := int .Values.shutdown.timeoutMs -}}
{{- add (div (add $ms 999) 1000) (int .Values.shutdown.extraSeconds) -}}
{{- end -}}

{{/*
The runnable units of the pipeline and the projector, each one Deployment and one consumer group
(plus the groups of later chain stages, and the retry delay groups of crm-sync and deliver, which
are not scaled on: their topics hold records waiting for their time). The consumer groups and
topics are the code's (apps/worker/src/stages.ts, docs/pipeline.md); the test
apps/leadstream/src/helm-chart.spec.ts checks them against it.
*/}}
{{- define "leadstream.units" -}}
{{- $intake := list
  (dict "name" "validate" "topic" "leads.submitted")
  (dict "name" "dedup" "topic" "leads.validated")
  (dict "name" "enrich" "topic" "leads.unique")
  (dict "name" "route" "topic" "leads.enriched") -}}
{{- $split := (include "leadstream.pipelineSplit" . | fromJson).split -}}
{{- $splittable := list "dedup" "enrich" "route" -}}
{{- range $split -}}
{{- if and (ne . "all") (not (has . $splittable)) -}}
{{- fail (printf "pipelineSplit names %q, which is not an intake stage after the first; it may name dedup, enrich, route, or all" .) -}}
{{- end -}}
{{- end -}}
{{- $all := has "all" $split -}}
{{- $chains := list -}}
{{- $current := list -}}
{{- range $index, $stage := $intake -}}
{{- if and (gt $index 0) (or $all (has $stage.name $split)) -}}
{{- $chains = append $chains $current -}}
{{- $current = list -}}
{{- end -}}
{{- $current = append $current $stage -}}
{{- end -}}
{{- $chains = append $chains $current -}}
{{- $units := list -}}
{{- range $chains -}}
{{- $head := (first .).name -}}
{{- $consumers := list -}}
{{- $members := list -}}
{{- range . -}}
{{- $consumers = append $consumers (dict "group" .name "topic" .topic) -}}
{{- $members = append $members .name -}}
{{- end -}}
{{- $units = append $units (dict "name" $head "args" (list "worker" "--stages" $head) "members" $members "consumers" $consumers) -}}
{{- end -}}
{{- $others := list
  (dict "name" "recalculate" "consumers" (list (dict "group" "recalculate" "topic" "calculations.requests")))
  (dict "name" "reprocess" "consumers" (list (dict "group" "reprocess" "topic" "reprocess.requests")))
  (dict "name" "rule-webhook" "consumers" (list (dict "group" "rule-webhook" "topic" "rules.webhooks")))
  (dict "name" "activity" "consumers" (list (dict "group" "activity" "topic" "leads.events")))
  (dict "name" "crm-sync" "consumers" (list (dict "group" "crm-sync" "topic" "leads.routed") (dict "group" "crm-sync" "topic" "crm.sync.requests")))
  (dict "name" "notify" "consumers" (list (dict "group" "notify" "topic" "leads.events")))
  (dict "name" "deliver" "consumers" (list (dict "group" "deliver" "topic" "webhooks.deliveries")))
  (dict "name" "export" "consumers" (list (dict "group" "export" "topic" "exports.requests"))) -}}
{{- range $others -}}
{{- $units = append $units (dict "name" .name "args" (list "worker" "--stages" .name) "members" (list .name) "consumers" .consumers) -}}
{{- end -}}
{{- $units = append $units (dict "name" "projector" "args" (list "projector") "members" (list) "consumers" (list (dict "group" "project" "topic" "leads.events"))) -}}
{{- toJson (dict "units" $units) -}}
{{- end -}}

{{/* A unit's settings: workers.defaults with workers.units.<name> over them. */}}
{{- define "leadstream.unitValues" -}}
{{- $own := get (.root.Values.workers.units | default dict) .name | default dict -}}
{{- toJson (mergeOverwrite (deepCopy .root.Values.workers.defaults) (deepCopy $own)) -}}
{{- end -}}

{{/* The environment every leadstream container gets. */}}
{{- define "leadstream.envFrom" -}}
- configMapRef:
    name: {{ include "leadstream.fullname" . }}-config
- secretRef:
    name: {{ include "leadstream.secretName" . }}
{{- end -}}

{{/* The ConfigMap's data (the migrate hook gets the same values inline: it may run before the ConfigMap exists or changes). */}}
{{- define "leadstream.configData" -}}
{{- $split := (include "leadstream.pipelineSplit" . | fromJson).split -}}
{{- $data := dict
  "HOST" "0.0.0.0"
  "PORT" (toString .Values.api.port)
  "OPS_PORT" (toString .Values.opsPort)
  "DATA_DIR" "/data"
  "KAFKA_BROKERS" .Values.kafka.brokers
  "KAFKA_CLIENT_ID" .Values.kafka.clientId
  "TOPIC_PREFIX" .Values.kafka.topicPrefix
  "TOPIC_PARTITIONS" (toString .Values.partitions)
  "PIPELINE_SPLIT" (ternary "none" (join "," $split) (empty $split))
  "SHUTDOWN_TIMEOUT_MS" (toString .Values.shutdown.timeoutMs) -}}
{{- range $key, $value := .Values.config -}}
{{- if hasKey $data $key -}}
{{- fail (printf "config.%s is set by the chart from other values (docs/operations.md)" $key) -}}
{{- end -}}
{{- $_ := set $data $key (toString $value) -}}
{{- end -}}
{{- toJson $data -}}
{{- end -}}

{{/* Pod-level fields shared by every workload. */}}
{{- define "leadstream.podCommon" -}}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
terminationGracePeriodSeconds: {{ include "leadstream.terminationGracePeriodSeconds" . }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
volumes:
  - name: data
    emptyDir: {}
  - name: tmp
    emptyDir: {}
{{- end -}}

{{- define "leadstream.volumeMounts" -}}
- name: data
  mountPath: /data
- name: tmp
  mountPath: /tmp
{{- end -}}

{{- define "leadstream.podAnnotations" -}}
checksum/config: {{ include "leadstream.configData" .root | sha256sum }}
{{- if .root.Values.prometheusScrapeAnnotations }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .port | quote }}
prometheus.io/path: /metrics
{{- end }}
{{- with .root.Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Liveness and readiness on /healthz and /readyz of the given port name. */}}
{{- define "leadstream.probes" -}}
startupProbe:
  httpGet: {path: /healthz, port: {{ . }}}
  periodSeconds: 5
  failureThreshold: 60
livenessProbe:
  httpGet: {path: /healthz, port: {{ . }}}
  periodSeconds: 10
  timeoutSeconds: 3
  failureThreshold: 3
readinessProbe:
  httpGet: {path: /readyz, port: {{ . }}}
  periodSeconds: 10
  timeoutSeconds: 5
  failureThreshold: 3
{{- end -}}
