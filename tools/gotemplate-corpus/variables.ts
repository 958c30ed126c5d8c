// Named variable sets for the Go template corpus: Cluster API's builtin variable as the topology controller builds it
// (for the control plane, a MachineDeployment and a MachinePool) with the quick-start ClusterClass's user variables,
// the same switched off, and values of every JSON type for the engine's corners.

const metadata = { labels: { 'cluster.x-k8s.io/cluster-name': 'my-cluster', tier: 'gold' }, annotations: { 'example.com/note': 'hello' } }

const cluster = {
  name: 'my-cluster',
  namespace: 'default',
  uid: '5b6c2a1e-0b9c-4d0b-9d5e-2f1c2d3e4f50',
  metadata,
  topology: { version: 'v1.31.2', class: 'quick-start', classNamespace: 'default' },
  network: { serviceDomain: 'cluster.local', services: ['10.128.0.0/12'], pods: ['192.168.0.0/16'], ipFamily: 'IPv4' }
}

const controlPlane = {
  version: 'v1.31.2',
  metadata,
  name: 'my-cluster-5qkzf',
  replicas: 3,
  machineTemplate: { infrastructureRef: { name: 'my-cluster-control-plane-abcde' } }
}

const machineDeployment = {
  version: 'v1.31.2+rke2r1',
  metadata,
  class: 'default-worker',
  name: 'my-cluster-md-0-7dq2x',
  topologyName: 'md-0',
  replicas: 2,
  bootstrap: { configRef: { name: 'my-cluster-md-0-bootstrap-x7k2p' } },
  infrastructureRef: { name: 'my-cluster-md-0-infra-q8w9e' }
}

const machinePool = { ...machineDeployment, class: 'default-worker-mp', name: 'my-cluster-mp-0-3jk4l', topologyName: 'mp-0' }

const quickStart = {
  lbImageRepository: 'kindest',
  etcdImageTag: '3.5.16-0',
  coreDNSImageTag: 'v1.11.3',
  kubeadmControlPlaneMaxSurge: '1',
  controlPlaneTaint: false,
  externalCloudProvider: true,
  ipv6Primary: false,
  kubeControlPlaneLogLevel: '2',
  kubeletLogLevel: '4',
  podSecurityStandard: { enabled: true, enforce: 'baseline', audit: 'restricted', warn: 'restricted' },
  customImage: '',
  preloadImages: ['registry.k8s.io/pause:3.10', 'registry.k8s.io/etcd:3.5.16-0'],
  imageRepository: 'registry.k8s.io',
  vnetName: '',
  mdConfig: { 'default-worker': { osImage: 'ubuntu-2204' }, 'default-worker-mp': { osImage: 'flatcar' } },
  httpProxy: { enabled: true, url: 'http://proxy.example.com:3128', noProxy: ['localhost', '127.0.0.1'] },
  kubeadmConfigTemplateFiles: [{ path: '/etc/motd', content: 'hello' }],
  variableA: 'A',
  variableB: 'VaLuE',
  variableC: 'C'
}

/** The variable sets, by name: each is a Cluster API merged variable map (name → JSON value). */
export const VARIABLE_SETS: Record<string, Record<string, unknown>> = {
  'quick-start-cp': { builtin: { cluster, controlPlane }, ...quickStart },
  'quick-start-md': { builtin: { cluster, machineDeployment }, ...quickStart },
  'quick-start-mp': { builtin: { cluster, machinePool }, ...quickStart },
  'quick-start-off': {
    builtin: { cluster, controlPlane, machineDeployment },
    ...quickStart,
    etcdImageTag: '',
    coreDNSImageTag: '',
    kubeadmControlPlaneMaxSurge: '',
    controlPlaneTaint: true,
    externalCloudProvider: false,
    kubeControlPlaneLogLevel: '',
    kubeletLogLevel: '',
    podSecurityStandard: { enabled: false, enforce: '', audit: '', warn: '' },
    vnetName: 'my-vnet',
    httpProxy: { enabled: false }
  },
  types: {
    s: 'hello',
    empty: '',
    n: 3,
    neg: -2.5,
    zero: 0,
    f: 1.5,
    big: 12345678,
    huge: 1e21,
    tiny: 1e-7,
    maxSafe: 9007199254740991,
    t: true,
    f0: false,
    nil: null,
    list: [1, 'two', true, null, { k: 'v' }],
    strs: ['b', 'a', 'c', 'a'],
    nums: [3, 1, 2],
    emptyList: [],
    map: { b: 2, a: 1, 'c d': [1, 2] },
    emptyMap: {},
    nested: { a: { b: { c: 'deep', n: null, l: ['x', 'y'] } } },
    unicode: 'héllo wörld ✓ 𝔘nicode',
    html: '<a href="x">&amp;</a>',
    multiline: 'line1\nline2\n  indented',
    yamlish: 'yes',
    num: '42',
    float: '3.75',
    hex: '0x1F',
    ver: 'v1.28.3',
    pre: '1.29.0-rc.1+build.5',
    csv: 'a,b,,c',
    spaces: '  padded  ',
    camel: 'fooBarBaz',
    snake: 'foo_bar-baz qux',
    path: '/usr/local/bin/../lib/./x.tar.gz',
    url: 'https://user:pw@example.com:8443/a/b?x=1&y=2#frag',
    json: '{"a":[1,2,{"b":null}],"c":"d"}',
    b64: 'aGVsbG8gd29ybGQ=',
    quote: 'it\'s "quoted"',
    tab: 'a\tb',
    ctl: 'bell\u0007',
    builtin: { cluster, controlPlane, machineDeployment }
  },
  empty: {}
}
