{{/* Names, labels and the environment every Lurker container shares. */}}

{{- define "lurker.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "lurker.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains (include "lurker.name" .) .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name (include "lurker.name" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "lurker.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "lurker.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component: (dict "root" $ "component" "api") */}}
{{- define "lurker.selectorLabels" -}}
app.kubernetes.io/name: {{ include "lurker.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "lurker.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* The Secret the chart creates for credentials given as values. */}}
{{- define "lurker.secretName" -}}
{{- printf "%s-credentials" (include "lurker.fullname" .) -}}
{{- end -}}

{{- define "lurker.chartSecretNeeded" -}}
{{- $es := .Values.elasticsearch -}}
{{- if or (and (not $es.existingSecret) (or $es.username $es.password $es.apiKey)) (and (not .Values.anthropic.existingSecret) .Values.anthropic.apiKey) -}}
true
{{- end -}}
{{- end -}}

{{- define "lurker.brokerURL" -}}
{{- printf "redis://%s-redis:6379/0" (include "lurker.fullname" .) -}}
{{- end -}}

{{/* env: store, credentials, broker, LLM, settings. Fails early on a half-configured release. */}}
{{- define "lurker.env" -}}
{{- $es := .Values.elasticsearch -}}
{{- $chartSecret := include "lurker.secretName" . -}}
- name: LURKER_STORE
  value: {{ required "elasticsearch.url is required (http(s)://host:9200)" $es.url | quote }}
- name: LURKER_ES_INDEX_PREFIX
  value: {{ $es.indexPrefix | quote }}
- name: LURKER_ES_SHARDS
  value: {{ $es.shards | quote }}
- name: LURKER_ES_REPLICAS
  value: {{ $es.replicas | quote }}
- name: LURKER_ES_REFRESH
  value: {{ $es.refresh | quote }}
{{- if $es.existingSecret }}
{{- range $env, $key := dict "LURKER_ES_USER" $es.usernameKey "LURKER_ES_PASSWORD" $es.passwordKey "LURKER_ES_API_KEY" $es.apiKeyKey }}
- name: {{ $env }}
  valueFrom:
    secretKeyRef: {name: {{ $es.existingSecret | quote }}, key: {{ $key | quote }}, optional: true}
{{- end }}
{{- else }}
{{- range $env, $value := dict "LURKER_ES_USER" $es.username "LURKER_ES_PASSWORD" $es.password "LURKER_ES_API_KEY" $es.apiKey }}
{{- if $value }}
- name: {{ $env }}
  valueFrom:
    secretKeyRef: {name: {{ $chartSecret | quote }}, key: {{ $env | quote }}}
{{- end }}
{{- end }}
{{- end }}
{{- if .Values.redis.enabled }}
- name: LURKER_BROKER_URL
  value: {{ include "lurker.brokerURL" . | quote }}
{{- else if .Values.redis.external.existingSecret }}
- name: LURKER_BROKER_URL
  valueFrom:
    secretKeyRef: {name: {{ .Values.redis.external.existingSecret | quote }}, key: {{ .Values.redis.external.urlKey | quote }}}
{{- else }}
- name: LURKER_BROKER_URL
  value: {{ required "redis.enabled=false needs redis.external.url or redis.external.existingSecret" .Values.redis.external.url | quote }}
{{- end }}
{{- with .Values.anthropic }}
{{- if .existingSecret }}
- name: ANTHROPIC_API_KEY
  valueFrom:
    secretKeyRef: {name: {{ .existingSecret | quote }}, key: {{ .apiKeyKey | quote }}}
{{- else if .apiKey }}
- name: ANTHROPIC_API_KEY
  valueFrom:
    secretKeyRef: {name: {{ $chartSecret | quote }}, key: ANTHROPIC_API_KEY}
{{- end }}
{{- if .baseUrl }}
- name: ANTHROPIC_BASE_URL
  value: {{ .baseUrl | quote }}
{{- end }}
{{- if .extractModel }}
- name: LURKER_EXTRACT_MODEL
  value: {{ .extractModel | quote }}
{{- end }}
{{- if .answerModel }}
- name: LURKER_ANSWER_MODEL
  value: {{ .answerModel | quote }}
{{- end }}
{{- end }}
- name: LURKER_LOG_FORMAT
  value: json
- name: HOME  # platformdirs' user data dir (audit log, caches) lands on the writable volume
  value: /var/lib/lurker
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Pod-level settings shared by every Lurker pod. */}}
{{- define "lurker.podSpec" -}}
automountServiceAccountToken: false
{{- with .Values.serviceAccountName }}
serviceAccountName: {{ . }}
{{- end }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
{{ toYaml . }}
{{- end }}
securityContext:
{{ toYaml .Values.podSecurityContext | indent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector:
{{ toYaml . | indent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
{{ toYaml . }}
{{- end }}
{{- with .Values.affinity }}
affinity:
{{ toYaml . | indent 2 }}
{{- end }}
{{- end -}}

{{/* Writable scratch space under a read-only root filesystem. */}}
{{- define "lurker.scratchVolumes" -}}
- name: data
  emptyDir: {}
- name: tmp
  emptyDir: {}
{{- end -}}

{{- define "lurker.scratchMounts" -}}
- name: data
  mountPath: /var/lib/lurker
- name: tmp
  mountPath: /tmp
{{- end -}}
