// OpenVDB (.vdb) export: see writer.ts for the byte layout and conventions.
export {
  COMPRESS_NONE,
  COMPRESS_ZIP,
  VDB_FILE_VERSION,
  writeVdb,
  writeVdbWithSummary,
  type VdbGrid,
  type VdbGridClass,
  type VdbGridSummary,
  type VdbVectorType,
  type VdbWriteOptions,
} from './writer'
export { vdbGridsFromVolumes, type VolumeExportOptions } from './fromVolumes'
