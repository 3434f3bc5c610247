/** editor/build.ts copies imported WebAssembly files beside the script: the import is their URL, relative to it. */
declare module '*.wasm' {
  const url: string;
  export default url;
}
