/** esbuild bundles imported stylesheets into the hashed CSS file beside the script. */
declare module '*.css';
